/**
 * The browser's catalogs of en-US, one chunk loaded before hydration by entry.client (issue 11 JS budget:
 * a page carries its own locale's catalogs, not both). Every `en-US/<namespace>.json` is picked up, so a
 * new catalog registered in app/i18n.ts for the server needs nothing here; each file is one top-level key.
 */
const files = import.meta.glob<Record<string, unknown>>('./en-US/*.json', { eager: true, import: 'default' })

export default Object.fromEntries(Object.entries(files).map(([file, catalog]) => [file.slice(file.lastIndexOf('/') + 1, -'.json'.length), catalog]))
