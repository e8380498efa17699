// Runs inside the cluster's network namespace: accepts connections on a unix socket (the filesystem is shared with
// the host) and joins each to HOST:PORT inside the namespace. The test process listens on host loopback and joins
// its connections to this socket, so tests reach the API server without any route into the namespace.
import net from 'node:net';

const [socketPath, host, port] = process.argv.slice(2);
net
  .createServer((client) => {
    const upstream = net.connect(Number(port), host);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  })
  .listen(socketPath);
