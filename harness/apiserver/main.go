// Command markergen-apiserver runs the real CRD API server of Kubernetes
// (k8s.io/apiextensions-apiserver) on an embedded etcd, both on loopback with
// random ports, for markergen's tests and benchmarks: they create the CRDs
// markergen writes on it and dry-run objects against them, so the server, not
// a reproduction of it, decides what is accepted.
//
// It prints one JSON line on stdout once the server answers /readyz:
//
//	{"host": "https://127.0.0.1:PORT", "kubeconfig": "PATH", "pid": N}
//
// and runs until it gets SIGINT or SIGTERM, or its standard input closes (so a
// test process that dies never leaves it behind).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	servertesting "k8s.io/apiextensions-apiserver/pkg/cmd/server/testing"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/klog/v2"
)

// logger is the servertesting.Logger of a program, not of a Go test.
type logger struct{ verbose bool }

func (l logger) Errorf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}
func (l logger) Fatalf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
func (l logger) Logf(format string, args ...interface{}) {
	if l.verbose {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func startEtcd(dir string) (*embed.Etcd, string, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, "", err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, "", err
	}
	cfg := embed.NewConfig()
	cfg.Dir = dir
	client := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", clientPort)}
	peer := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", peerPort)}
	cfg.ListenClientUrls = []url.URL{client}
	cfg.AdvertiseClientUrls = []url.URL{client}
	cfg.ListenPeerUrls = []url.URL{peer}
	cfg.AdvertisePeerUrls = []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogLevel = "error"
	// Nothing here outlives the process: skip the fsyncs.
	cfg.UnsafeNoFsync = true
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", err
	}
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, "", fmt.Errorf("etcd did not become ready in 60s")
	}
	return e, client.String(), nil
}

// The CRD API server's authentication and authorization delegate to a
// kube-apiserver; --authentication-skip-lookup and the loopback client's
// privileged token make the delegation moot, but the flags still want a file.
const placeholderKubeconfig = `apiVersion: v1
kind: Config
clusters:
- cluster: {server: "http://127.0.0.1:1"}
  name: none
contexts:
- context: {cluster: none, user: none}
  name: none
current-context: none
users:
- name: none
  user: {token: none}
`

func writeKubeconfig(path string, cfg *rest.Config) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["markergen"] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.TLSClientConfig.CAData,
		InsecureSkipTLSVerify:    len(cfg.TLSClientConfig.CAData) == 0,
		TLSServerName:            cfg.TLSClientConfig.ServerName,
	}
	kc.AuthInfos["markergen"] = &clientcmdapi.AuthInfo{Token: cfg.BearerToken}
	kc.Contexts["markergen"] = &clientcmdapi.Context{Cluster: "markergen", AuthInfo: "markergen"}
	kc.CurrentContext = "markergen"
	return clientcmd.WriteToFile(*kc, path)
}

func run() error {
	dataDir := flag.String("data-dir", "", "directory for etcd's data and the kubeconfig (a new temporary one by default)")
	verbose := flag.Bool("v", false, "log the server's start-up steps on stderr")
	flag.Parse()
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)

	dir := *dataDir
	if dir == "" {
		d, err := os.MkdirTemp("", "markergen-apiserver-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	e, etcdURL, err := startEtcd(filepath.Join(dir, "etcd"))
	if err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	defer e.Close()

	placeholder := filepath.Join(dir, "placeholder.kubeconfig")
	if err := os.WriteFile(placeholder, []byte(placeholderKubeconfig), 0o600); err != nil {
		return err
	}
	server, err := servertesting.StartTestServer(logger{*verbose}, nil, []string{
		"--etcd-servers", etcdURL,
		"--authentication-skip-lookup",
		"--authentication-kubeconfig", placeholder,
		"--authorization-kubeconfig", placeholder,
		"--kubeconfig", placeholder,
		// No kube-apiserver behind this one: admission and filters that would
		// ask it about namespaces, webhooks and policies are off, as in the
		// CRD API server's own integration tests.
		"--enable-priority-and-fairness=false",
		"--disable-admission-plugins", "NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy",
	}, nil)
	if err != nil {
		return fmt.Errorf("CRD API server: %w", err)
	}
	defer server.TearDownFn()

	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(kubeconfig, server.ClientConfig); err != nil {
		return err
	}
	line, _ := json.Marshal(map[string]interface{}{
		"host":       server.ClientConfig.Host,
		"kubeconfig": kubeconfig,
		"pid":        os.Getpid(),
	})
	fmt.Println(string(line))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		// stdin closing means the process that started us is gone.
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	<-ctx.Done()
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "markergen-apiserver:", err)
		os.Exit(1)
	}
}
