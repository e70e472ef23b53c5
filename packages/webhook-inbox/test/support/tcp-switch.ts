// Test support: a TCP forwarder standing for a DNS name, a proxy or a Sentinel-managed address that
// moves to the new primary after a failover: connections opened after `target = port` go there,
// while those already open stay with the old server, as they would in production.
import { createServer, connect, type Socket } from 'node:net';
import { listen } from '@forms-api/test-support';

export interface TcpSwitch {
  readonly port: number;
  /** Where new connections go (127.0.0.1:target). */
  target: number;
  close(): Promise<void>;
}

export async function startTcpSwitch(target: number): Promise<TcpSwitch> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const state = { target };
  const server = createServer((client) => {
    const upstream = connect(state.target, '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream).on('close', () => client.destroy());
    upstream.pipe(client).on('close', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const { port } = await listen(server);
  return {
    port,
    get target() {
      return state.target;
    },
    set target(port: number) {
      state.target = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
