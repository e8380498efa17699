// Command argocd-probe runs Argo CD's own code over specforge's output, for the delivery tests
// (test/cluster/argocd.test.ts). It is built by scripts/build-gitops-tools.sh against a released Argo CD module;
// nothing here reimplements Argo CD.
//
//	argocd-probe generate --repo ROOT --path dist/CHART --app NAME [--namespace NS]
//	    Argo CD repo-server's manifest generation (reposerver/repository.GenerateManifests, what
//	    `argocd app manifests --local` runs) over a directory of the repository. Prints
//	    {"sourceType": ..., "manifests": [objects]} as JSON.
//	argocd-probe sync --kubeconfig FILE [--namespace NS] [--server-side] FILE...
//	    gitops-engine's Sync (pkg/sync, the sync loop of Argo CD's application controller) of every object in
//	    the YAML files, against a real API server, with Argo CD's own kubectl wrapper doing the applies. Runs until
//	    the operation completes and prints {"phase", "message", "applies": [...], "results": [...]}: applies in
//	    the order they reached the API server (dry runs excluded), each with the time it returned (ms since the
//	    epoch). The sync options are those of Argo CD's application controller (controller/sync.go) that matter
//	    here: its health checks (gitops-engine's, then the Lua checks Argo CD ships, e.g. a CRD is Healthy only once
//	    Established) and its pause between waves (2 s, or ARGOCD_SYNC_WAVE_DELAY seconds).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/argoproj/argo-cd/gitops-engine/v3/pkg/health"
	gsync "github.com/argoproj/argo-cd/gitops-engine/v3/pkg/sync"
	"github.com/argoproj/argo-cd/gitops-engine/v3/pkg/sync/common"
	kubeutil "github.com/argoproj/argo-cd/gitops-engine/v3/pkg/utils/kube"
	"github.com/argoproj/argo-cd/gitops-engine/v3/pkg/utils/tracing"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/reposerver/apiclient"
	"github.com/argoproj/argo-cd/v3/reposerver/repository"
	"github.com/argoproj/argo-cd/v3/util/git"
	utilio "github.com/argoproj/argo-cd/v3/util/io"
	"github.com/argoproj/argo-cd/v3/util/lua"
	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	if len(os.Args) < 2 {
		fail(errors.New("usage: argocd-probe generate|sync ..."))
	}
	var err error
	switch os.Args[1] {
	case "generate":
		err = generate(os.Args[2:])
	case "sync":
		err = runSync(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "argocd-probe: %v\n", err)
	os.Exit(1)
}

func generate(args []string) error {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	repo := fs.String("repo", "", "repository root")
	path := fs.String("path", "", "application path inside the repository")
	app := fs.String("app", "", "application name")
	ns := fs.String("namespace", "", "destination namespace")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := filepath.Abs(*repo)
	if err != nil {
		return err
	}
	src := &v1alpha1.ApplicationSource{RepoURL: "https://git.example.invalid/repo.git", Path: *path, TargetRevision: "HEAD"}
	q := &apiclient.ManifestRequest{
		Repo:               &v1alpha1.Repository{Repo: src.RepoURL},
		AppName:            *app,
		Namespace:          *ns,
		ProjectName:        "default",
		ApplicationSource:  src,
		AppLabelKey:        "app.kubernetes.io/instance",
		TrackingMethod:     string(v1alpha1.TrackingMethodAnnotation),
		KustomizeOptions:   &v1alpha1.KustomizeOptions{},
		EnabledSourceTypes: map[string]bool{"kustomize": true, "helm": true, "directory": true},
	}
	res, err := repository.GenerateManifests(context.Background(), filepath.Join(root, *path), root, "0123456789abcdef0123456789abcdef01234567", q, true,
		git.NoopCredsStore{}, resource.MustParse("100M"), utilio.NewRandomizedTempPaths(os.TempDir()))
	if err != nil {
		return err
	}
	objs := make([]json.RawMessage, 0, len(res.Manifests))
	for _, m := range res.Manifests {
		objs = append(objs, json.RawMessage(m))
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"sourceType": res.SourceType, "commands": res.Commands, "manifests": objs})
}

// apply is one call of Argo CD's kubectl wrapper that reached the API server.
type apply struct {
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Wave      string `json:"wave"`
	Error     string `json:"error,omitempty"`
	At        int64  `json:"at"`
}

// recordingKubectl is Argo CD's kubectl wrapper with every non-dry-run apply recorded in order.
type recordingKubectl struct {
	kubeutil.Kubectl
	mu      sync.Mutex
	applies []apply
}

func (k *recordingKubectl) ManageResources(config *rest.Config) (kubeutil.ResourceOperations, func(), error) {
	ops, cleanup, err := k.Kubectl.ManageResources(config)
	if err != nil {
		return nil, nil, err
	}
	return &recordingOps{ResourceOperations: ops, k: k}, cleanup, nil
}

type recordingOps struct {
	kubeutil.ResourceOperations
	k *recordingKubectl
}

func (r *recordingOps) record(obj *unstructured.Unstructured, dry cmdutil.DryRunStrategy, err error) {
	if dry != cmdutil.DryRunNone {
		return
	}
	a := apply{Group: obj.GroupVersionKind().Group, Kind: obj.GetKind(), Namespace: obj.GetNamespace(), Name: obj.GetName(),
		Wave: obj.GetAnnotations()[common.AnnotationSyncWave], At: time.Now().UnixMilli()}
	if err != nil {
		a.Error = err.Error()
	}
	r.k.mu.Lock()
	r.k.applies = append(r.k.applies, a)
	r.k.mu.Unlock()
}

func (r *recordingOps) ApplyResource(ctx context.Context, obj *unstructured.Unstructured, dry cmdutil.DryRunStrategy, force, validate, ssa bool, manager string) (string, error) {
	out, err := r.ResourceOperations.ApplyResource(ctx, obj, dry, force, validate, ssa, manager)
	r.record(obj, dry, err)
	return out, err
}

func (r *recordingOps) CreateResource(ctx context.Context, obj *unstructured.Unstructured, dry cmdutil.DryRunStrategy, validate bool) (string, error) {
	out, err := r.ResourceOperations.CreateResource(ctx, obj, dry, validate)
	r.record(obj, dry, err)
	return out, err
}

// namespacedInfo answers Reconcile's "is this kind namespaced" from the CRDs being synced, then discovery.
type namespacedInfo struct {
	crdScope map[schema.GroupKind]bool
	disco    discovery.DiscoveryInterface
}

func (n *namespacedInfo) IsNamespaced(gk schema.GroupKind) (bool, error) {
	if v, ok := n.crdScope[gk]; ok {
		return v, nil
	}
	lists, _ := n.disco.ServerPreferredResources()
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil || gv.Group != gk.Group {
			continue
		}
		for _, r := range l.APIResources {
			if r.Kind == gk.Kind {
				return r.Namespaced, nil
			}
		}
	}
	return true, nil
}

func readObjects(files []string) ([]*unstructured.Unstructured, error) {
	var objs []*unstructured.Unstructured
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rd := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if len(strings.TrimSpace(string(doc))) == 0 {
				continue
			}
			obj := &unstructured.Unstructured{}
			js, err := utilyaml.ToJSON(doc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if err := obj.UnmarshalJSON(js); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if obj.GetKind() == "Kustomization" && obj.GroupVersionKind().Group == "kustomize.config.k8s.io" {
				continue
			}
			objs = append(objs, obj)
		}
	}
	return objs, nil
}

// argocdHealth is the health override Argo CD's application controller syncs with: the Lua checks it ships
// (lua.ResourceHealthOverrides, with no resource.customizations of its own), before gitops-engine's built-in ones.
// With workloads set, workloads and their exposure are Healthy once applied, as a `resource.customizations` health
// check would say: the test control plane has no nodes to run pods on, and no ingress controller, router or load
// balancer to give an Ingress, a Route or a Service its address.
type argocdHealth struct {
	workloads bool
}

func (h argocdHealth) GetResourceHealth(obj *unstructured.Unstructured) (*health.HealthStatus, error) {
	if h.workloads {
		switch obj.GetKind() {
		case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Ingress", "Route", "Service":
			return &health.HealthStatus{Status: health.HealthStatusHealthy, Message: "nothing runs it in the test control plane"}, nil
		}
	}
	return lua.ResourceHealthOverrides{}.GetResourceHealth(obj)
}

// delayBetweenSyncWaves pauses after every wave but the last, as Argo CD's application controller does (its
// SyncWaveHook of the same name): 2 s, or the whole seconds in ARGOCD_SYNC_WAVE_DELAY.
func delayBetweenSyncWaves(_ common.SyncPhase, _ int, finalWave bool) error {
	if finalWave {
		return nil
	}
	delay := 2
	if v, err := strconv.Atoi(os.Getenv("ARGOCD_SYNC_WAVE_DELAY")); err == nil {
		delay = v
	}
	time.Sleep(time.Duration(delay) * time.Second)
	return nil
}

// liveObjects reads the live state of every target, as Argo CD's cluster cache would hold it, with a fresh
// discovery (a CRD created by the previous iteration is known now).
func liveObjects(cfg *rest.Config, targets []*unstructured.Unstructured, ns string, info kubeutil.ResourceInfoProvider) (map[kubeutil.ResourceKey]*unstructured.Unstructured, error) {
	disco, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	groups, err := restmapper.GetAPIGroupResources(disco)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	live := map[kubeutil.ResourceKey]*unstructured.Unstructured{}
	for _, t := range targets {
		gvk := t.GroupVersionKind()
		m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			continue // kind not served yet: nothing live
		}
		var ri dynamic.ResourceInterface = dyn.Resource(m.Resource)
		if m.Scope.Name() == meta.RESTScopeNameNamespace {
			objNs := t.GetNamespace()
			if objNs == "" {
				objNs = ns
			}
			ri = dyn.Resource(m.Resource).Namespace(objNs)
		}
		obj, err := ri.Get(context.Background(), t.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		live[kubeutil.GetResourceKey(obj)] = obj
	}
	return live, nil
}

func runSync(args []string) error {
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig file")
	ns := fs.String("namespace", "default", "the application's destination namespace")
	ssa := fs.Bool("server-side", false, "server-side apply (Argo CD's ServerSideApply=true)")
	healthy := fs.Bool("workloads-healthy", false, "report workloads Healthy once applied (no nodes to run pods)")
	timeout := fs.Duration("timeout", 120*time.Second, "give up after")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return err
	}
	targets, err := readObjects(fs.Args())
	if err != nil {
		return err
	}
	disco, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	info := &namespacedInfo{crdScope: map[schema.GroupKind]bool{}, disco: disco}
	for _, t := range targets {
		if kubeutil.IsCRD(t) {
			group, _, _ := unstructured.NestedString(t.Object, "spec", "group")
			kind, _, _ := unstructured.NestedString(t.Object, "spec", "names", "kind")
			scope, _, _ := unstructured.NestedString(t.Object, "spec", "scope")
			info.crdScope[schema.GroupKind{Group: group, Kind: kind}] = scope == "Namespaced"
		}
	}
	kubectl := &recordingKubectl{Kubectl: &kubeutil.KubectlCmd{Log: logr.Discard(), Tracer: tracing.NopTracer{}}}
	// As Argo CD's application controller does: every reconcile of a running operation builds a new sync context
	// from the live state and the operation state so far (controller/sync.go, WithInitialState).
	deadline := time.Now().Add(*timeout)
	var phase common.OperationPhase
	var message string
	var results []common.ResourceSyncResult
	startedAt := metav1.Now()
	for {
		live, err := liveObjects(cfg, targets, *ns, info)
		if err != nil {
			return err
		}
		copies := make([]*unstructured.Unstructured, len(targets))
		for i, t := range targets {
			copies[i] = t.DeepCopy()
		}
		result := gsync.Reconcile(copies, live, *ns, info)
		opts := []gsync.SyncOpt{gsync.WithLogr(logr.Discard()), gsync.WithServerSideApply(*ssa),
			gsync.WithHealthOverride(argocdHealth{workloads: *healthy}), gsync.WithSyncWaveHook(delayBetweenSyncWaves)}
		if *ssa {
			opts = append(opts, gsync.WithServerSideApplyManager("argocd-controller"))
		}
		if phase != "" {
			opts = append(opts, gsync.WithInitialState(phase, message, results, startedAt))
		}
		sc, cleanup, err := gsync.NewSyncContext("0123456789abcdef", result, cfg, cfg, kubectl, *ns, opts...)
		if err != nil {
			return err
		}
		sc.Sync(context.Background())
		phase, message, results = sc.GetState()
		cleanup()
		if phase.Completed() || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	type res struct {
		Group, Kind, Namespace, Name, Status, Message, SyncPhase, HookPhase string
	}
	out := make([]res, 0, len(results))
	for _, r := range results {
		out = append(out, res{r.ResourceKey.Group, r.ResourceKey.Kind, r.ResourceKey.Namespace, r.ResourceKey.Name,
			string(r.Status), r.Message, string(r.SyncPhase), string(r.HookPhase)})
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"phase": phase, "message": message, "applies": kubectl.applies, "results": out})
}
