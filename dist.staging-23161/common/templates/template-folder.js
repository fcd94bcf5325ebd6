"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadTemplateFolder = loadTemplateFolder;
exports.filesIn = filesIn;
exports.unusedTemplates = unusedTemplates;
/**
 * A folder of Eta templates, loaded once: the participant pages' and the mails' markup are files
 * (docs/design.md "Templates"), rendered by Eta's own file handling (`include`, `layout`, paths
 * relative to the including file) but read and compiled when the process starts. After that no
 * render touches the disk: a template that was not loaded is an error, never a read. A template
 * that names a missing one fails at start-up (and in the unit tests), not on a participant's
 * request.
 */
const eta_1 = require("eta");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/** `include(…)` and `layout(…)` calls in a template's code. */
const REFERENCE_CALL = /\b(include|includeAsync|layout)\s*\(\s*/g;
const STRING_LITERAL = /^(['"])([^'"]+)\1/;
/**
 * The templates `file` (an absolute path) names with `include` or `layout`, as absolute paths
 * resolved the way Eta resolves them at render time. A name that is not a string literal cannot
 * be checked, so it is refused.
 */
function references(eta, file, source) {
    const found = [];
    for (const part of eta.parse(source)) {
        if (typeof part === 'string')
            continue;
        for (const call of part.val.matchAll(REFERENCE_CALL)) {
            const literal = STRING_LITERAL.exec(part.val.slice(call.index + call[0].length));
            if (!literal) {
                throw new eta_1.EtaFileResolutionError(`${file}: ${call[1]}(…) must name its template with a string literal`);
            }
            found.push(eta.resolvePath(literal[2], { filepath: file }));
        }
    }
    return found;
}
/**
 * Every template reachable from `entries` (names relative to `dir`): each read once, in the
 * order met, keyed by absolute path. Throws when one of them is missing.
 */
function readReachable(eta, dir, entries) {
    const sources = new Map();
    const visit = (file, from) => {
        if (sources.has(file))
            return;
        let source;
        try {
            source = (0, node_fs_1.readFileSync)(file, 'utf8');
        }
        catch (error) {
            if (error.code !== 'ENOENT')
                throw error;
            throw new eta_1.EtaFileResolutionError(`Missing template ${(0, node_path_1.relative)(dir, file)} (${from})`);
        }
        sources.set(file, source);
        for (const next of references(eta, file, source))
            visit(next, (0, node_path_1.relative)(dir, file));
    };
    for (const entry of entries)
        visit(eta.resolvePath(entry), 'an entry');
    return sources;
}
/**
 * An Eta engine over `dir` holding `entries` and everything they include, compiled now. Whitespace
 * is output as written (`autoTrim: false`); `-%>` drops the line break after a tag.
 */
function loadTemplateFolder(dir, entries, config) {
    const eta = new eta_1.Eta({ ...config, autoTrim: false, cache: true, views: dir });
    for (const [file, source] of readReachable(eta, dir, entries))
        eta.loadTemplate(file, source);
    eta.readFile = (file) => {
        throw new eta_1.EtaFileResolutionError(`Template ${file} was not loaded at start`);
    };
    return eta;
}
/** Every file under `dir`, as '/'-separated paths relative to it, sorted. */
function filesIn(dir) {
    return (0, node_fs_1.readdirSync)(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => (0, node_path_1.relative)(dir, (0, node_path_1.join)(entry.parentPath, entry.name)).split(node_path_1.sep).join('/'))
        .sort();
}
/** The files in `dir` that no entry reaches: dead markup (the unit tests keep this empty). */
function unusedTemplates(dir, entries) {
    const eta = new eta_1.Eta({ views: dir });
    const used = new Set([...readReachable(eta, dir, entries).keys()].map((file) => (0, node_path_1.relative)(dir, file).split(node_path_1.sep).join('/')));
    return filesIn(dir).filter((file) => !used.has(file));
}
//# sourceMappingURL=template-folder.js.map