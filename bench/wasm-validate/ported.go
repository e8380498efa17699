package main

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
	pvcutil "k8s.io/kubernetes/pkg/api/persistentvolumeclaim"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/batch"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// The create strategies of ReplicaSet, Job, Pod, Service, ConfigMap, Secret and PersistentVolumeClaim cannot be
// imported for GOOS=js: their packages import k8s.io/apiserver/pkg/registry/generic, which imports storagebackend,
// etcd3 and the etcd client, whose fileutil calls syscall.Flock (as kubectl-validate#79 found). Here their
// PrepareForCreate and Validate are ported by hand from pkg/registry/*/strategy.go v1.34.4, so for these kinds parity
// is by copy, not by construction (the Pod's unexported scheduling-gate and affinity mutations and the Service's
// dropping of disabled fields are left out).

// ported is a create strategy made of a PrepareForCreate and a Validate.
type ported struct {
	runtime.ObjectTyper
	names.NameGenerator
	prepare  func(runtime.Object)
	validate func(runtime.Object) field.ErrorList
}

func portedStrategy(prepare func(runtime.Object), validate func(runtime.Object) field.ErrorList) ported {
	return ported{legacyscheme.Scheme, names.SimpleNameGenerator, prepare, validate}
}

func (ported) NamespaceScoped() bool { return true }

func (s ported) PrepareForCreate(_ context.Context, obj runtime.Object) { s.prepare(obj) }

func (s ported) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	return s.validate(obj)
}

func (ported) WarningsOnCreate(context.Context, runtime.Object) []string { return nil }

func (ported) Canonicalize(runtime.Object) {}

var replicaSetStrategy = portedStrategy(func(obj runtime.Object) {
	rs := obj.(*apps.ReplicaSet)
	rs.Status, rs.Generation = apps.ReplicaSetStatus{}, 1
	podutil.DropDisabledTemplateFields(&rs.Spec.Template, nil)
}, func(obj runtime.Object) field.ErrorList {
	rs := obj.(*apps.ReplicaSet)
	return appsvalidation.ValidateReplicaSet(rs, podutil.GetValidationOptionsFromPodTemplate(&rs.Spec.Template, nil))
})

var jobStrategy = portedStrategy(func(obj runtime.Object) {
	job := obj.(*batch.Job)
	if job.Spec.ManualSelector == nil || !*job.Spec.ManualSelector {
		generateSelector(job)
	}
	job.Status, job.Generation = batch.JobStatus{}, 1
	podutil.DropDisabledTemplateFields(&job.Spec.Template, nil)
}, func(obj runtime.Object) field.ErrorList {
	job := obj.(*batch.Job)
	return batchvalidation.ValidateJob(job, batchvalidation.JobValidationOptions{
		PodValidationOptions:  podutil.GetValidationOptionsFromPodTemplate(&job.Spec.Template, nil),
		RequirePrefixedLabels: true,
	})
})

// generateSelector is the Job strategy's: the job-name and controller-uid labels, and a selector of the uid.
func generateSelector(job *batch.Job) {
	if job.Spec.Template.Labels == nil {
		job.Spec.Template.Labels = map[string]string{}
	}
	for _, k := range []string{batch.LegacyJobNameLabel, batch.JobNameLabel} {
		if _, found := job.Spec.Template.Labels[k]; !found {
			job.Spec.Template.Labels[k] = job.Name
		}
	}
	for _, k := range []string{batch.LegacyControllerUidLabel, batch.ControllerUidLabel} {
		if _, found := job.Spec.Template.Labels[k]; !found {
			job.Spec.Template.Labels[k] = string(job.UID)
		}
	}
	if job.Spec.Selector == nil {
		job.Spec.Selector = &metav1.LabelSelector{}
	}
	if job.Spec.Selector.MatchLabels == nil {
		job.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, found := job.Spec.Selector.MatchLabels[batch.ControllerUidLabel]; !found {
		job.Spec.Selector.MatchLabels[batch.ControllerUidLabel] = string(job.UID)
	}
}

var podStrategy = portedStrategy(func(obj runtime.Object) {
	pod := obj.(*core.Pod)
	pod.Generation, pod.Status = 1, core.PodStatus{Phase: core.PodPending}
	podutil.DropDisabledPodFields(pod, nil)
}, func(obj runtime.Object) field.ErrorList {
	pod := obj.(*core.Pod)
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, nil, &pod.ObjectMeta, nil)
	opts.ResourceIsPod = true
	return corevalidation.ValidatePodCreate(pod, opts)
})

var serviceStrategy = portedStrategy(func(obj runtime.Object) {
	obj.(*core.Service).Status = core.ServiceStatus{}
}, func(obj runtime.Object) field.ErrorList {
	return corevalidation.ValidateServiceCreate(obj.(*core.Service))
})

var configMapStrategy = portedStrategy(func(runtime.Object) {}, func(obj runtime.Object) field.ErrorList {
	return corevalidation.ValidateConfigMap(obj.(*core.ConfigMap))
})

var secretStrategy = portedStrategy(func(runtime.Object) {}, func(obj runtime.Object) field.ErrorList {
	return corevalidation.ValidateSecret(obj.(*core.Secret))
})

var pvcStrategy = portedStrategy(func(obj runtime.Object) {
	pvc := obj.(*core.PersistentVolumeClaim)
	pvc.Status = core.PersistentVolumeClaimStatus{}
	pvcutil.DropDisabledFields(&pvc.Spec, nil)
	pvcutil.EnforceDataSourceBackwardsCompatibility(&pvc.Spec, nil)
	pvcutil.NormalizeDataSources(&pvc.Spec)
}, func(obj runtime.Object) field.ErrorList {
	pvc := obj.(*core.PersistentVolumeClaim)
	return corevalidation.ValidatePersistentVolumeClaim(pvc, corevalidation.ValidationOptionsForPersistentVolumeClaim(pvc, nil))
})
