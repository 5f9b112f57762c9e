/** The body was not a readable Arrow IPC stream: the client's mistake (InvalidInput). */
export class ArrowDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArrowDecodeError";
  }
}
