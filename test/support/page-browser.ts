/**
 * A participant's browser, for HTTP tests of the participant pages: it keeps the cookie the pages
 * set when a link binds to it (docs/privacy.md) and sends it back, posts forms as a browser does
 * (`application/x-www-form-urlencoded`) and never follows redirects, so a test sees each answer.
 * One instance = one browser; `new PageBrowser(t.baseUrl)` for the app under test.
 */
export interface PageAnswer {
  status: number;
  headers: Headers;
  /** The redirect's target, if any. */
  location: string | null;
  html: string;
}

export interface PageRequest {
  method?: string;
  /** A form (encoded as a browser does) or a raw body. */
  form?: Record<string, string> | string;
  /** Of a raw body; a form is `application/x-www-form-urlencoded`. */
  contentType?: string;
  /** More headers, as a browser adds them (`Sec-Fetch-Site`, `Origin`). */
  headers?: Record<string, string>;
}

export class PageBrowser {
  /** The cookie jar: name → value. */
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl = '') {}

  /** Headers to send: the browser's cookies, once there are any. */
  headers(): Record<string, string> {
    return this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {};
  }

  /** The `Cookie` header this browser sends (`name=value; …`), or '' without cookies. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** The value of one cookie, if the browser holds it. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /**
   * Holds these cookies (`name=value; …`) from now on, in place of its own, as if someone had
   * planted them.
   */
  plant(cookies: string): void {
    this.cookies.clear();
    this.add(cookies);
  }

  /** Adds (or overwrites) cookies (`name=value; …`), keeping the others. */
  add(cookies: string): void {
    for (const pair of cookies.split(';')) {
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  /** Remembers the cookies the response sets. */
  keep(response: Response): void {
    for (const setCookie of response.headers.getSetCookie()) this.add(setCookie.split(';')[0]);
  }

  /** Requests `path` as this browser: GET, or POST when there is a form. */
  async request(path: string, init: PageRequest = {}): Promise<PageAnswer> {
    const body =
      init.form === undefined
        ? undefined
        : typeof init.form === 'string'
          ? init.form
          : new URLSearchParams(init.form).toString();
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      redirect: 'manual',
      headers: {
        ...(body === undefined
          ? {}
          : { 'content-type': init.contentType ?? 'application/x-www-form-urlencoded' }),
        ...this.headers(),
        ...init.headers,
      },
      body,
    });
    this.keep(response);
    return {
      status: response.status,
      headers: response.headers,
      location: response.headers.get('location'),
      html: await response.text(),
    };
  }

  get(path: string): Promise<PageAnswer> {
    return this.request(path);
  }

  /** Posts a form (empty by default), as the pages' buttons do. */
  post(path: string, form: Record<string, string> | string = {}): Promise<PageAnswer> {
    return this.request(path, { method: 'POST', form });
  }
}
