/**
 * The browser's catalogs of zh-CN, one chunk loaded before hydration by entry.client (issue 11 JS budget:
 * a page carries its own locale's catalogs, not both). Every `zh-CN/<namespace>.json` is picked up, so a
 * new catalog registered in app/i18n.ts for the server needs nothing here; each file is one top-level key.
 */
const files = import.meta.glob<Record<string, unknown>>('./zh-CN/*.json', { eager: true, import: 'default' })

export default Object.fromEntries(Object.entries(files).map(([file, catalog]) => [file.slice(file.lastIndexOf('/') + 1, -'.json'.length), catalog]))
