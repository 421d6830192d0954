// A transport wrapper for the official SDK clients: it records the protocol revision the
// initialize handshake settled on (SDK v1 clients do not expose it) and the error codes
// that came over the wire (SDK v2 rewrites some), and can make the client ask for an
// older revision than its latest, which neither SDK client offers as an option. Everything else passes through untouched, so the SDK still drives the
// session and parses every result itself.

/** The transport shape both SDK generations share (structurally). */
export interface SdkTransport {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  readonly sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

type Message = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number };
};

export class NegotiationRecorder {
  /** The protocolVersion of the server's initialize result. */
  negotiated: string | undefined;
  /** JSON-RPC error codes of the error responses received, in order. */
  readonly errorCodes: number[] = [];
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  private initializeId: unknown;

  constructor(
    private readonly inner: SdkTransport,
    /** Rewrites the protocolVersion the client's initialize asks for. */
    private readonly askFor?: string,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onmessage = ((message: Message, extra?: unknown) => {
      if (this.initializeId !== undefined && message.id === this.initializeId && message.result) {
        this.negotiated = message.result.protocolVersion as string;
      }
      if (message.error) this.errorCodes.push(message.error.code);
      (this.onmessage as ((m: unknown, e?: unknown) => void) | undefined)?.(message, extra);
    }) as never;
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: unknown, options?: unknown): Promise<void> {
    let outgoing = message as Message;
    if (outgoing.method === "initialize" && outgoing.id !== undefined) {
      this.initializeId = outgoing.id;
      if (this.askFor !== undefined)
        outgoing = { ...outgoing, params: { ...outgoing.params, protocolVersion: this.askFor } };
    }
    return this.inner.send(outgoing, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
