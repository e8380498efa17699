// A thread that never ends on its own (it must be stopped).
setInterval(() => undefined, 1000);
