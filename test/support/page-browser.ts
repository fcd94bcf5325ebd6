/**
 * A browser for HTTP tests of the participant pages: keeps the cookie the pages set when a link
 * binds to it (DESIGN §14) and sends it back, as a browser would. One instance = one browser.
 */
export class PageBrowser {
  private cookie: string | null = null;

  /** Headers to send: the browser cookie, once there is one. */
  headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }

  /** Remembers a cookie the response sets. */
  keep(response: Response): void {
    const setCookie = response.headers.getSetCookie()[0];
    if (setCookie) this.cookie = setCookie.split(';')[0];
  }

  /** Requests `baseUrl + path` as this browser (its cookie, redirects not followed). */
  async open(
    baseUrl: string,
    path: string,
    method: 'GET' | 'POST' = 'GET',
  ): Promise<{ status: number; html: string }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: this.headers(),
    });
    this.keep(response);
    return { status: response.status, html: await response.text() };
  }
}
