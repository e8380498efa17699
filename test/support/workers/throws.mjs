// A thread whose module fails as it loads.
throw new Error('this thread fails as it starts');
