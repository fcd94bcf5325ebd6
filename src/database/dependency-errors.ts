/**
 * Start-up connectivity failures, reported as one clear line: which dependency, where, why, and
 * how to start it. Never a stack trace.
 */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: 'PostgreSQL' | 'Redis',
    readonly location: string,
    readonly reason: string,
  ) {
    super(
      `${dependency} is not reachable at ${location} (${reason}). ${DependencyUnavailableError.howToStart(dependency)}`,
    );
    this.name = 'DependencyUnavailableError';
  }

  private static howToStart(dependency: 'PostgreSQL' | 'Redis'): string {
    return dependency === 'PostgreSQL'
      ? 'Start PostgreSQL (`docker compose up -d postgres`, or `pg_ctlcluster <version> main start` on Debian) or set DATABASE_URL.'
      : 'Start Redis (`docker compose up -d redis`, or `redis-server --daemonize yes`) or set REDIS_URL.';
  }
}

/** host:port of a URL, without credentials. */
export function describeLocation(rawUrl: string): string {
  try {
    const url = new URL(rawUrl);
    const path = url.pathname && url.pathname !== '/' ? url.pathname : '';
    return `${url.hostname}:${url.port || (url.protocol.startsWith('redis') ? '6379' : '5432')}${path}`;
  } catch {
    return 'the configured address';
  }
}

export function describeReason(error: unknown): string {
  const err = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const nested = err.errors?.find((inner) => inner.code)?.code;
  return err.code ?? nested ?? err.message ?? String(error);
}
