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
  private cookie: string | null = null;

  constructor(private readonly baseUrl = '') {}

  /** Headers to send: the browser cookie, once there is one. */
  headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }

  /** Holds this cookie (`name=value`) from now on, as if a site had planted it. */
  plant(cookie: string): void {
    this.cookie = cookie;
  }

  /** Remembers a cookie the response sets. */
  keep(response: Response): void {
    const setCookie = response.headers.getSetCookie()[0];
    if (setCookie) this.cookie = setCookie.split(';')[0];
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
