import { Box, NavLink, UnstyledButton } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { MenuItem } from '#contract/menu.ts'

/** The id of the current page's entry in the side menu: the layout's "skip to the menu" link leads there. */
export const MENU_CURRENT = 'menu-current'

/** The entry's link: the customer-service entry leaves the console (a full page load, a new tab). */
const external = (item: MenuItem) => item.path === '/support'

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
const linkProps = (item: MenuItem) =>
  ({
    component: Link,
    to: item.path,
    ...(external(item) ? { reloadDocument: true, target: '_blank', rel: 'noopener' } : { prefetch: 'intent' as const }),
  }) as const

/**
 * The side menu. A group is a `<details>` whose `<summary>` opens it, so every entry is reachable
 * without JavaScript too (issue 13); the groups of the current page's trail start open and its own
 * entry is highlighted (`active`: the path of the page's menu entry, nested pages included).
 */
export function MenuTree({ items, active, open, markCurrent }: { items: MenuItem[]; active: string | null; open: Set<string>; markCurrent?: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      {items.map((item) =>
        item.children?.length ? (
          <details key={item.path} className="ps-menu-group" open={open.has(item.path) || undefined}>
            <GroupSummary label={t(item.name)} active={open.has(item.path) && !active} chevron={14} />
            <Box pl={16}>
              <MenuTree items={item.children} active={active} open={open} markCurrent={markCurrent} />
            </Box>
          </details>
        ) : (
          <NavLink
            key={item.path}
            {...linkProps(item)}
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
export function CollapsedMenu({ items, active, open }: { items: MenuItem[]; active: string | null; open: Set<string> }) {
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
              {...linkProps(item)}
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
              <MenuTree items={item.children} active={active} open={open} />
            </Box>
          </details>
        )
      })}
    </>
  )
}

/** SPEC §3 topMenu: the menu across the header; groups drop down (`<details>`, no JavaScript needed). */
export function TopMenu({ items, active, open }: { items: MenuItem[]; active: string | null; open: Set<string> }) {
  const { t } = useTranslation()
  return (
    <Box component="ul" className="ps-top-menu">
      {items.map((item) => (
        <li key={item.path}>
          {item.children?.length ? (
            <details className="ps-flyout ps-flyout-down">
              <GroupSummary label={t(item.name)} active={open.has(item.path)} chevron={12} />
              <Box className="ps-flyout-panel" p={4}>
                <MenuTree items={item.children} active={active} open={open} />
              </Box>
            </details>
          ) : (
            <NavLink {...linkProps(item)} label={t(item.name)} active={item.path === active} aria-current={item.path === active ? 'page' : undefined} />
          )}
        </li>
      ))}
    </Box>
  )
}
