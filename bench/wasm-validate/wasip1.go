//go:build wasip1 || !wasm

package main

import (
	"bufio"
	"fmt"
	"os"
)

// main reads one JSON object a line on stdin and writes one answer a line (the GOOS=wasip1 and native fallback).
func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		fmt.Fprintln(out, answer(in.Bytes()))
	}
}
