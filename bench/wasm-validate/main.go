// Command wasm-validate is a measurement, not a part of specforge: kube-apiserver v1.34.4's own decoding, defaulting
// and create strategies (rest.BeforeCreate: PrepareForCreate, Validate*, ObjectMeta), built for GOOS=js GOARCH=wasm
// and called from Node (bench/wasm-validate/load.mjs), to compare with specforge's TypeScript rules (issue 45).
// See README.md beside it.
package main

import (
	"encoding/json"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
)

// Problem is one field error (or a decoding error, Type "Decode"), as the API server's 422 lists them.
type Problem struct {
	Type   string `json:"type"`
	Field  string `json:"field,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Result is the answer for one object: Checked is false for a kind this program has no Validate* for.
type Result struct {
	Kind     string    `json:"kind"`
	Checked  bool      `json:"checked"`
	Problems []Problem `json:"problems"`
	// DecodeNs and ValidateNs split the time of a checked object: decoding, defaulting and conversion; BeforeCreate.
	DecodeNs   int64 `json:"decodeNs,omitempty"`
	ValidateNs int64 `json:"validateNs,omitempty"`
}

// strict decodes as kube-apiserver does under fieldValidation=Strict (kubectl's default): unknown and duplicate
// fields are errors.
var strict = kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, legacyscheme.Scheme, legacyscheme.Scheme,
	kjson.SerializerOptions{Strict: true})

// Validate decodes one JSON object into its versioned type, defaults it, converts it to the internal type and runs
// what a create runs after admission: rest.BeforeCreate with the kind's own strategy (PrepareForCreate, the
// strategy's Validate with the options it makes, then ObjectMeta), in the namespace "default" when the object names
// none (the request's namespace). Not run: admission, the node-port and cluster-IP allocators, storage.
func Validate(data []byte) Result {
	t0 := time.Now()
	versioned, gvk, err := strict.Decode(data, nil, nil)
	if err != nil {
		kind := ""
		if gvk != nil {
			kind = gvk.String()
		}
		return Result{Kind: kind, Checked: true, Problems: []Problem{{Type: "Decode", Detail: err.Error()}}}
	}
	res := Result{Kind: gvk.String()}
	strategy, known := strategies[gvk.GroupKind()]
	if !known {
		return res
	}
	res.Checked = true
	internal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err == nil {
		legacyscheme.Scheme.Default(versioned)
		err = legacyscheme.Scheme.Convert(versioned, internal, nil)
	}
	if err != nil {
		res.Problems = []Problem{{Type: "Decode", Detail: err.Error()}}
		return res
	}
	t1 := time.Now()
	// What the generic store's Create does before BeforeCreate: the request's namespace, a generated name, the
	// system fields (uid, creationTimestamp).
	ctx := genericapirequest.NewDefaultContext()
	if m, err := meta.Accessor(internal); err == nil {
		if m.GetNamespace() != "" {
			ctx = genericapirequest.WithNamespace(ctx, m.GetNamespace())
		}
		if m.GetGenerateName() != "" && m.GetName() == "" {
			m.SetName(strategy.GenerateName(m.GetGenerateName()))
		}
		rest.FillObjectMetaSystemFields(m)
	}
	res.Problems = problemsOf(rest.BeforeCreate(strategy, ctx, internal))
	res.DecodeNs, res.ValidateNs = t1.Sub(t0).Nanoseconds(), time.Since(t1).Nanoseconds()
	return res
}

// problemsOf gives the field errors of BeforeCreate's error (a 422's causes), or the error itself.
func problemsOf(err error) []Problem {
	out := []Problem{}
	if err == nil {
		return out
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil || len(status.Status().Details.Causes) == 0 {
		return append(out, Problem{Type: "Error", Detail: err.Error()})
	}
	for _, c := range status.Status().Details.Causes {
		out = append(out, Problem{Type: string(c.Type), Field: c.Field, Detail: c.Message})
	}
	return out
}

// strategies are the create strategies of the kinds issue 45 lists, as kube-apiserver registers them.
var strategies = map[schema.GroupKind]rest.RESTCreateStrategy{
	{Group: "apps", Kind: "Deployment"}:                     deployment.Strategy,
	{Group: "apps", Kind: "StatefulSet"}:                    statefulset.Strategy,
	{Group: "apps", Kind: "DaemonSet"}:                      daemonset.Strategy,
	{Group: "apps", Kind: "ReplicaSet"}:                     replicaSetStrategy,
	{Group: "batch", Kind: "Job"}:                           jobStrategy,
	{Group: "batch", Kind: "CronJob"}:                       cronjob.Strategy,
	{Group: "", Kind: "Pod"}:                                podStrategy,
	{Group: "", Kind: "Service"}:                            serviceStrategy,
	{Group: "", Kind: "ConfigMap"}:                          configMapStrategy,
	{Group: "", Kind: "Secret"}:                             secretStrategy,
	{Group: "", Kind: "PersistentVolumeClaim"}:              pvcStrategy,
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: horizontalpodautoscaler.Strategy,
	{Group: "policy", Kind: "PodDisruptionBudget"}:          poddisruptionbudget.Strategy,
	{Group: "networking.k8s.io", Kind: "Ingress"}:           ingress.Strategy,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:     networkpolicy.Strategy,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:            runtimeclass.Strategy,
}

// answer is Validate's result as JSON, or a Decode problem if it cannot be written (it always can).
func answer(data []byte) string {
	out, err := json.Marshal(Validate(data))
	if err != nil {
		return fmt.Sprintf(`{"checked":true,"problems":[{"type":"Decode","detail":%q}]}`, err.Error())
	}
	return string(out)
}
