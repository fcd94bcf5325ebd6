"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PAGE_TEMPLATES = exports.PAGE_TEMPLATE_DIR = void 0;
exports.renderPage = renderPage;
/**
 * The participant pages' models (what each template is given, typed) and `renderPage`. The markup
 * is in files: one template per page in `templates/`, the shared parts (layout, saved message,
 * privacy, preferences and hand-off sections) in `templates/partials/`, the stylesheet in
 * `templates/style.css`, inlined by the layout. They are loaded once, at start (see
 * page-renderer.ts and docs/design.md "Templates"). Eta escapes every `<%= … %>` interpolation
 * (autoEscape); the only raw outputs (`<%~ … %>`) are the layout's body, the stylesheet and the
 * included sections, which are themselves rendered templates. No page carries a script:
 * everything works with plain links and form posts.
 */
const node_path_1 = require("node:path");
const template_folder_1 = require("../common/templates/template-folder");
const locales_1 = require("../common/i18n/locales");
const page_language_1 = require("./i18n/page-language");
const pages_messages_1 = require("./pages.messages");
/** Where the page templates are: next to this file, in `src/` (ts-jest) as in `dist/` (the build). */
exports.PAGE_TEMPLATE_DIR = (0, node_path_1.join)(__dirname, 'templates');
/** Each page's template, relative to PAGE_TEMPLATE_DIR (a new page needs its entry here). */
exports.PAGE_TEMPLATES = {
    checkin: 'checkin.eta',
    settings: 'settings.eta',
    pending: 'pending.eta',
    error: 'error.eta',
    confirm: 'confirm.eta',
    notice: 'notice.eta',
    start: 'start.eta',
    unsubscribe: 'unsubscribe.eta',
};
const engine = (0, template_folder_1.loadTemplateFolder)(exports.PAGE_TEMPLATE_DIR, Object.values(exports.PAGE_TEMPLATES), {
    autoEscape: true,
});
/**
 * Renders a whole page (layout included) in `context.locale` (docs/i18n.md): its texts,
 * `<html lang dir>`, and the language switcher (on pages that can be loaded again, `context.url`);
 * every value in `model` is escaped.
 */
function renderPage(name, model, context) {
    const { locale, url } = context;
    const languages = url
        ? locales_1.LOCALES.map((lang) => ({
            lang,
            name: locales_1.LOCALE_NAMES[lang],
            href: (0, page_language_1.pageUrlIn)(url, lang),
            current: lang === locale,
        }))
        : [];
    return engine.render(exports.PAGE_TEMPLATES[name], {
        ...model,
        texts: (0, pages_messages_1.pageTextsIn)(locale),
        lang: locale,
        dir: (0, locales_1.textDirection)(locale),
        languages,
    });
}
//# sourceMappingURL=page-templates.js.map