// What the load loop needs from a transport: send one call, get its JSON-RPC response.
import type { Call } from "../workload/requests.js";

export interface Connection {
  /** Sends the call as a request and resolves with the JSON-RPC response (parsed). */
  request(call: Call): Promise<unknown>;
  close(): Promise<void>;
}
