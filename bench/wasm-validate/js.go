//go:build js && wasm

package main

import "syscall/js"

// main gives Node globalThis.k8sValidate(json string) -> JSON string, then waits for calls.
func main() {
	js.Global().Set("k8sValidate", js.FuncOf(func(this js.Value, args []js.Value) any {
		return answer([]byte(args[0].String()))
	}))
	js.Global().Call("k8sValidateReady")
	select {}
}
