/**
 * A client-facing error: an HTTP status and one of the catalogued messages. The global filter
 * writes it as `{"error": message}`. Modules keep their messages in `<module>.errors.ts`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static badRequest(message: string): ApiError {
    return new ApiError(400, message);
  }
}
