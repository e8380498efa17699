// Command workload is the node suites' test image: a static server that says which pod answered.
//
// It listens on every port of $PORTS ("80/tcp 5353/udp 8080", protocol TCP when left out; the image sets a default
// for each tag it is imported under, as nginx's image knows it serves on 80). On TCP it speaks HTTP:
//
//	GET /             "pod=NAME port=N/tcp uid=U rootfs=readonly|unwritable|writable"
//	GET /healthz      "ok"
//	GET /get?url=U    what an HTTP GET of U from inside the pod returned (a ClusterIP seen from another pod)
//	GET /udp?addr=A   what a UDP datagram to A from inside the pod got back
//
// On UDP it answers each datagram with "pod=NAME port=N/udp".
package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	spec := os.Getenv("PORTS")
	if spec == "" {
		spec = "8080"
	}
	pod, _ := os.Hostname()
	for _, p := range strings.Fields(strings.ReplaceAll(spec, ",", " ")) {
		port, proto, _ := strings.Cut(strings.ToLower(p), "/")
		switch proto {
		case "", "tcp":
			go serveTCP(pod, port)
		case "udp":
			go serveUDP(pod, port)
		default:
			fmt.Fprintf(os.Stderr, "PORTS: %q: expected PORT, PORT/tcp or PORT/udp\n", p)
			os.Exit(2)
		}
	}
	fmt.Printf("workload %s serving %s as uid %d\n", pod, spec, os.Getuid())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func serveTCP(pod, port string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/get", func(w http.ResponseWriter, r *http.Request) {
		client := http.Client{Timeout: 3 * time.Second}
		resp, err := client.Get(r.URL.Query().Get("url"))
		if err != nil {
			http.Error(w, "get error: "+err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		w.Write(body)
	})
	mux.HandleFunc("/udp", func(w http.ResponseWriter, r *http.Request) {
		reply, err := askUDP(r.URL.Query().Get("addr"))
		if err != nil {
			http.Error(w, "udp error: "+err.Error(), http.StatusBadGateway)
			return
		}
		fmt.Fprintln(w, reply)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		rootfs := "writable"
		if f, err := os.CreateTemp("/", ".probe"); errors.Is(err, syscall.EROFS) {
			rootfs = "readonly"
		} else if err != nil {
			rootfs = "unwritable"
		} else {
			f.Close()
			os.Remove(f.Name())
		}
		fmt.Fprintf(w, "pod=%s port=%s/tcp uid=%d rootfs=%s\n", pod, port, os.Getuid(), rootfs)
	})
	fail(http.ListenAndServe(":"+port, mux))
}

func serveUDP(pod, port string) {
	conn, err := net.ListenPacket("udp", ":"+port)
	if err != nil {
		fail(err)
	}
	buf := make([]byte, 1500)
	for {
		_, from, err := conn.ReadFrom(buf)
		if err != nil {
			continue
		}
		conn.WriteTo([]byte(fmt.Sprintf("pod=%s port=%s/udp", pod, port)), from)
	}
}

func askUDP(addr string) (string, error) {
	conn, err := net.Dial("udp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := conn.Write([]byte("hello")); err != nil {
		return "", err
	}
	buf := make([]byte, 1500)
	n, err := conn.Read(buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}
