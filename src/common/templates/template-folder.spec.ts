import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { filesIn, loadTemplateFolder, unusedTemplates } from './template-folder';

describe('a template folder', () => {
  let dir: string;
  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'template-folder-'));
    write({
      'page.eta': `<% layout('./partials/layout.eta', { title: it.title }) -%>\n<p><%= it.text %></p>\n`,
      'partials/layout.eta': `<title><%= it.title %></title><style><%~ include('../style.css') %></style>\n<%~ it.body %>`,
      'style.css': 'p { color: red; }',
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('renders through layouts and includes, relative to each file, escaping values', () => {
    const eta = loadTemplateFolder(dir, ['page.eta'], { autoEscape: true });
    expect(eta.render('page.eta', { title: 'T&C', text: '<b>' })).toBe(
      '<title>T&amp;C</title><style>p { color: red; }</style>\n<p>&lt;b&gt;</p>\n',
    );
  });

  it('reads the files once, when loaded: rendering later reads nothing from disk', () => {
    const eta = loadTemplateFolder(dir, ['page.eta'], { autoEscape: false });
    rmSync(dir, { recursive: true, force: true });
    expect(eta.render('page.eta', { title: 'T', text: '<b>' })).toContain('<p><b></p>');
    expect(() => eta.render('other.eta', {})).toThrow(/other\.eta was not loaded at start/);
  });

  it('fails to load when an entry or a template it names is missing', () => {
    expect(() => loadTemplateFolder(dir, ['nope.eta'], { autoEscape: true })).toThrow(
      'Missing template nope.eta (an entry)',
    );
    write({ 'partials/layout.eta': `<%~ include('./head.eta') %><%~ it.body %>` });
    expect(() => loadTemplateFolder(dir, ['page.eta'], { autoEscape: true })).toThrow(
      'Missing template partials/head.eta (partials/layout.eta)',
    );
  });

  it('refuses a template named by anything but a string literal (it could not be checked)', () => {
    write({ 'page.eta': `<%~ include(it.name) %>` });
    expect(() => loadTemplateFolder(dir, ['page.eta'], { autoEscape: true })).toThrow(
      /page\.eta: include\(…\) must name its template with a string literal/,
    );
  });

  it('lists the files no entry reaches', () => {
    expect(unusedTemplates(dir, ['page.eta'])).toEqual([]);
    write({ 'partials/old.eta': 'unused', 'notes.txt': 'stray' });
    expect(filesIn(dir)).toEqual([
      'notes.txt',
      'page.eta',
      'partials/layout.eta',
      'partials/old.eta',
      'style.css',
    ]);
    expect(unusedTemplates(dir, ['page.eta'])).toEqual(['notes.txt', 'partials/old.eta']);
  });
});
