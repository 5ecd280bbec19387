import { Box, NavLink, UnstyledButton } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { MenuItem } from '#contract/menu.ts'

/** The id of the current page's entry in the side menu: the layout's "skip to the menu" link leads there. */
export const MENU_CURRENT = 'menu-current'

/**
 * The customer-service entry (`/support`, a redirect): with an outside SUPPORT_URL it leaves the console
 * in a new tab, as a link to another site is expected to; without one it leads to My messages inside
 * the console, in this tab (issue 23, decision 156). A full page load either way: `/support` is a
 * redirect, not a page.
 */
const SUPPORT = '/support'

/** A chevron sized by its attributes too, so it stays small where no stylesheet applies (issue 23). */
function Chevron({ size, className }: { size: number; className?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 15 15" fill="none" aria-hidden="true" className={className}>
      <path d="M3.1 5.2a.5.5 0 0 1 .7 0L7.5 9l3.7-3.8a.5.5 0 1 1 .7.7l-4 4a.5.5 0 0 1-.7 0l-4-4a.5.5 0 0 1 0-.7Z" fill="currentColor" />
    </svg>
  )
}

/**
 * A group's `<summary>`, drawn like a NavLink. Not a NavLink itself: that puts a `<div>` in the summary,
 * which only phrasing content may fill (html-validate, issue 23).
 */
function GroupSummary({ label, active, chevron, className }: { label: string; active?: boolean; chevron: number; className?: string }) {
  return (
    <summary className={className ?? 'ps-menu-summary'} data-active={active || undefined}>
      <span className="ps-menu-label">{label}</span>
      <Chevron size={chevron} className="ps-menu-chevron" />
    </summary>
  )
}
const linkProps = (item: MenuItem, supportOutside: boolean) =>
  ({
    component: Link,
    to: item.path,
    ...(item.path !== SUPPORT
      ? { prefetch: 'intent' as const }
      : supportOutside
        ? { reloadDocument: true, target: '_blank', rel: 'noopener' }
        : { reloadDocument: true }),
  }) as const

/** What every menu form takes: the entries, the current page's entry and trail, and where customer service is. */
type MenuProps = { items: MenuItem[]; active: string | null; open: Set<string>; supportOutside: boolean }

/**
 * The side menu. A group is a `<details>` whose `<summary>` opens it, so every entry is reachable
 * without JavaScript too (issue 13); the groups of the current page's trail start open and its own
 * entry is highlighted (`active`: the path of the page's menu entry, nested pages included).
 */
export function MenuTree({ items, active, open, supportOutside, markCurrent }: MenuProps & { markCurrent?: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      {items.map((item) =>
        item.children?.length ? (
          <details key={item.path} className="ps-menu-group" open={open.has(item.path) || undefined}>
            <GroupSummary label={t(item.name)} active={open.has(item.path) && !active} chevron={14} />
            <Box pl={16}>
              <MenuTree items={item.children} active={active} open={open} supportOutside={supportOutside} markCurrent={markCurrent} />
            </Box>
          </details>
        ) : (
          <NavLink
            key={item.path}
            {...linkProps(item, supportOutside)}
            label={t(item.name)}
            active={item.path === active}
            aria-current={item.path === active ? 'page' : undefined}
            id={markCurrent && item.path === active ? MENU_CURRENT : undefined}
          />
        ),
      )}
    </>
  )
}

const initial = (label: string) => Array.from(label)[0]?.toUpperCase() ?? '·'

/**
 * SPEC §3 menuCollapse: one square per top-level entry (its label's first letter, the full label as
 * title and accessible name); a group opens its entries in a flyout beside the bar (`<details>`, so
 * without JavaScript too).
 */
export function CollapsedMenu({ items, active, open, supportOutside }: MenuProps) {
  const { t } = useTranslation()
  return (
    <>
      {items.map((item) => {
        const label = t(item.name)
        const current = item.path === active || open.has(item.path)
        if (!item.children?.length) {
          return (
            <UnstyledButton
              key={item.path}
              {...linkProps(item, supportOutside)}
              className="ps-collapsed-entry"
              data-active={current || undefined}
              aria-label={label}
              title={label}
              aria-current={item.path === active ? 'page' : undefined}
            >
              {initial(label)}
            </UnstyledButton>
          )
        }
        return (
          <details key={item.path} className="ps-flyout">
            <summary className="ps-collapsed-entry" data-active={current || undefined} aria-label={label} title={label}>
              {initial(label)}
            </summary>
            <Box className="ps-flyout-panel" p={4}>
              <MenuTree items={item.children} active={active} open={open} supportOutside={supportOutside} />
            </Box>
          </details>
        )
      })}
    </>
  )
}

/** SPEC §3 topMenu: the menu across the header; groups drop down (`<details>`, no JavaScript needed). */
export function TopMenu({ items, active, open, supportOutside }: MenuProps) {
  const { t } = useTranslation()
  return (
    <Box component="ul" className="ps-top-menu">
      {items.map((item) => (
        <li key={item.path}>
          {item.children?.length ? (
            <details className="ps-flyout ps-flyout-down">
              <GroupSummary label={t(item.name)} active={open.has(item.path)} chevron={12} />
              <Box className="ps-flyout-panel" p={4}>
                <MenuTree items={item.children} active={active} open={open} supportOutside={supportOutside} />
              </Box>
            </details>
          ) : (
            <NavLink {...linkProps(item, supportOutside)} label={t(item.name)} active={item.path === active} aria-current={item.path === active ? 'page' : undefined} />
          )}
        </li>
      ))}
    </Box>
  )
}
