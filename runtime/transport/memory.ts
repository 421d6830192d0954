// An in-memory link between a client session and a server, for tests and for embedding
// a server in the same process. Messages are copied through JSON as on a real wire.
import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.js";
import type { Peer } from "../jsonrpc/peer.js";
import type { ClientChannel } from "../mcp/client.js";
import type { McpEndpoint } from "../mcp/server.js";
import { serializeMessage } from "../jsonrpc/serialize.js";
import { parseMessage } from "../jsonrpc/parse.js";

export function memoryChannel(server: McpEndpoint): ClientChannel {
  let toClient: ((value: unknown) => void) | undefined;
  let onClosed: (() => void) | undefined;
  let serverPeer: Peer | undefined;
  let open = true;
  const deliver = (message: JsonRpcMessage, to: (value: unknown) => void) => {
    const copy = parseMessage(serializeMessage(message));
    queueMicrotask(() => open && to(copy));
  };
  return {
    kind: "memory",
    async start(handlers: {
      receive(value: unknown): void;
      fail(id: RequestId, error: Error): void;
      closed(error?: Error): void;
    }) {
      toClient = handlers.receive;
      onClosed = () => handlers.closed();
      serverPeer = server.connect({ send: (message) => toClient && deliver(message, toClient) });
    },
    send(message) {
      const peer = serverPeer;
      if (peer) deliver(message, (value) => peer.receive(value));
    },
    async close() {
      if (!open) return;
      open = false;
      serverPeer?.close("Client closed");
      onClosed?.();
    },
  };
}
