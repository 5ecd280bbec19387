import { ActionIcon, Button, Group } from '@mantine/core'
import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { MenuItem } from '#contract/menu.ts'
import { menuTrail } from './menu-match.ts'

/** SPEC §3 Tab bar entry: title, name (the menu key), fullPath, query and ignoreCache. */
type Tab = { title: string; name: string; fullPath: string; query: Record<string, string>; ignoreCache: boolean }

function tabOf(fullPath: string, menu: MenuItem[], t: (k: string) => string): Tab {
  const url = new URL(fullPath, 'http://x')
  const entry = menuTrail(menu, url.pathname).at(-1)
  const name = entry?.name ?? url.pathname
  return { title: entry ? t(entry.name) : url.pathname, name, fullPath, query: Object.fromEntries(url.searchParams), ignoreCache: false }
}

/**
 * The tab bar (SPEC §3): the pages visited, kept by the layout's loader in a cookie. Each tab is a link;
 * its × and "close others" are forms posting to /settings (with or without JavaScript); "reload" loads
 * the current page afresh from the server (ignoreCache).
 */
export function TabBar({ paths, menu }: { paths: string[]; menu: MenuItem[] }) {
  const { t } = useTranslation()
  const location = useLocation()
  const here = location.pathname + location.search
  const tabs = paths.map((p) => tabOf(p, menu, t))
  return (
    <Group gap={4} wrap="nowrap" className="ps-tab-bar" component="nav" aria-label={t('shell.tabs.label')} data-testid="tab-bar">
      <div className="ps-tab-scroll">
        <Group gap={4} wrap="nowrap" component="ul" className="ps-tab-list">
          {tabs.map((tab) => {
            const current = tab.fullPath === here
            return (
              <li key={tab.fullPath} className="ps-tab" data-active={current || undefined}>
                <Link to={tab.fullPath} aria-current={current ? 'page' : undefined} className="ps-tab-link" data-name={tab.name}>
                  {tab.title}
                </Link>
                <Form method="post" action="/settings" className="ps-tab-close">
                  <input type="hidden" name="intent" value="close-tab" />
                  <input type="hidden" name="path" value={tab.fullPath} />
                  <input type="hidden" name="redirectTo" value={here} />
                  <ActionIcon type="submit" variant="subtle" color="gray" size="xs" aria-label={t('shell.tabs.close', { title: tab.title })}>
                    ×
                  </ActionIcon>
                </Form>
              </li>
            )
          })}
        </Group>
      </div>
      <Form method="post" action="/settings">
        <input type="hidden" name="intent" value="close-others" />
        <input type="hidden" name="path" value={here} />
        <input type="hidden" name="redirectTo" value={here} />
        <Button type="submit" variant="subtle" size="compact-xs">
          {t('shell.tabs.closeOthers')}
        </Button>
      </Form>
      <Button component={Link} to={here} reloadDocument variant="subtle" size="compact-xs">
        {t('shell.tabs.reload')}
      </Button>
    </Group>
  )
}
