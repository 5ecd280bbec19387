import { ActionIcon, Anchor, AppShell, Breadcrumbs, Burger, Button, Group, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Form, Link, useLocation, useMatches, useNavigate } from '@remix-run/react'
import { LIST_ID, type ListHandle } from '../lists/list-target.ts'
import { type ReactNode, useEffect, useReducer, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MenuItem } from '#contract/menu.ts'
import type { User } from '#contract/users.ts'
import { LocaleSwitch } from './LocaleSwitch.tsx'
import { LayoutHoldsH1 } from './page-heading.tsx'
import { menuTrail } from '../shell/menu-match.ts'
import { CollapsedMenu, MENU_CURRENT, MenuTree, TopMenu } from '../shell/menus.tsx'
import { RoleContext } from '../shell/permission.tsx'
import { ServerMenuNotice } from '../shell/server-menu-notice.tsx'
import { useStoredSettings } from '../shell/use-settings.ts'
import { loadDrawer, loadedDrawer } from '../shell/drawer-module.ts'
import { TabBar } from '../shell/tab-bar.tsx'
import { UnreadBadge } from '#app/components/messages/unread-badge.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { SkipLink, TextSep } from './text-mode.tsx'

/** A page below no menu entry of its own names the entry it belongs to (`handle: { menu: '/…' }`). */
export type MenuHandle = { menu?: string }

const COLLAPSED_WIDTH = 64
const HEADER_TWO_ROWS = 88

const preloadDrawer = () => void loadDrawer()

/** The gear of the settings drawer: a button with JavaScript, a link to `?settings` without. */
function SettingsButton({ open, href, floating }: { open: () => void; href: string; floating?: boolean }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const props = hydrated ? { onClick: open, onPointerEnter: preloadDrawer, onFocus: preloadDrawer } : { component: Link, to: href }
  return (
    <ActionIcon
      {...(props as object)}
      variant={floating ? 'filled' : 'default'}
      size={floating ? 'xl' : 'md'}
      radius={floating ? 'xl' : undefined}
      title={t('shell.settings.title')}
      className={floating ? 'ps-settings-fab' : undefined}
      data-testid="settings-button"
    >
      {/* Text, not only an aria-label: a text browser shows it (issue 23). */}
      <VisuallyHidden>{t('shell.settings.title')}</VisuallyHidden>
      <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <circle cx="12" cy="12" r="3" />
        <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
      </svg>
    </ActionIcon>
  )
}

/**
 * The default layout of logged-in pages, drawn from the SPEC §3 app settings (cookie, server-rendered):
 * header (navbar), side menu — full, collapsed or across the header (topMenu) — or none (menu, hideMenu),
 * tab bar, breadcrumbs, footer; the settings drawer. Everything comes from the menu tree, so a new page
 * with a menu entry needs nothing here.
 */
export function AppLayout({
  user,
  menu,
  menuFailed,
  tabs,
  supportOutside = false,
  children,
}: {
  user: User
  menu: MenuItem[]
  menuFailed?: boolean
  tabs?: string[]
  /** SUPPORT_URL is set: the customer-service entry opens that outside page in a new tab. */
  supportOutside?: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  const location = useLocation()
  const { pathname } = location
  const settings = useStoredSettings()
  const [opened, { toggle, close: closeMenu }] = useDisclosure(false)
  // On a phone the menu covers the page: choosing an entry (any navigation) puts it away.
  useEffect(() => closeMenu(), [location.key, closeMenu])
  const params = new URLSearchParams(location.search)
  const settingsInUrl = params.has('settings')
  const [settingsOpen, settingsDrawer] = useDisclosure(false)
  const hydrated = useHydrated()
  const navigate = useNavigate()
  // `?settings` opens it too: the no-JS link, or a click on that link just before hydration.
  const drawerOpen = settingsOpen || settingsInUrl
  // Mounted from the first opening on, so the drawer can animate out and give focus back on close.
  const [drawerUsed, setDrawerUsed] = useState(drawerOpen)
  if (drawerOpen && !drawerUsed) setDrawerUsed(true)
  params.delete('settings')
  const closeTo = params.size ? `${pathname}?${params}` : pathname
  params.set('settings', '')
  const settingsHref = `${pathname}?${params}`

  // The drawer's module is loaded on first use (drawer-module.ts). A click loads it, mounts the drawer
  // closed, then opens it, so the drawer knows the button to give focus back to when it closes.
  const SettingsDrawer = loadedDrawer()
  const [, drawerLoaded] = useReducer((n: number) => n + 1, 0)
  const [openWhenMounted, setOpenWhenMounted] = useState(false)
  const openSettings = () => {
    void loadDrawer().then(() => {
      setDrawerUsed(true)
      setOpenWhenMounted(true)
    })
  }
  useEffect(() => {
    if (drawerOpen && !SettingsDrawer) void loadDrawer().then(drawerLoaded)
  }, [drawerOpen, SettingsDrawer])
  useEffect(() => {
    if (openWhenMounted && drawerUsed && SettingsDrawer) {
      setOpenWhenMounted(false)
      settingsDrawer.open()
    }
  }, [openWhenMounted, drawerUsed, SettingsDrawer, settingsDrawer])

  const matches = useMatches()
  const isList = matches.some((m) => (m.handle as Partial<ListHandle> | undefined)?.list)
  const hint = matches
    .map((m) => (m.handle as MenuHandle | undefined)?.menu)
    .findLast(Boolean)
  const trail = menuTrail(menu, pathname, hint)
  const active = trail.at(-1)?.children?.length ? null : (trail.at(-1)?.path ?? null)
  const open = new Set(trail.map((i) => i.path))

  const showMenu = settings.menu && !settings.hideMenu
  const sideMenu = showMenu && !settings.topMenu
  const width = settings.menuCollapse ? COLLAPSED_WIDTH : settings.menuWidth
  const menuProps = { items: menu, active, open, supportOutside }

  return (
    <RoleContext.Provider value={user.role}>
      <SkipLink label={t('common.skipToMain')} />
      {/* On a list page, straight to the rows past the title and the filters: a queue's item in a few keys (issue 23). */}
      {isList ? (
        <>
          <TextSep />
          <SkipLink label={t('common.skipToList')} to={LIST_ID} />
        </>
      ) : null}
      {/* To the menu, at the current page's own entry: its neighbours are the next pages of the day (issue 23). */}
      {showMenu ? (
        <>
          <TextSep />
          <SkipLink label={t('common.skipToMenu')} to={active && !settings.menuCollapse ? MENU_CURRENT : 'app-menu'} />
        </>
      ) : null}
      <ServerMenuNotice />
      <AppShell
        // Two rows below 576 px (xs): the brand, then the header's controls, which covered it at 320–390 px (issue 23).
        header={settings.navbar ? { height: { base: HEADER_TWO_ROWS, xs: 56 } } : undefined}
        navbar={showMenu ? { width, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !sideMenu } } : undefined}
        footer={settings.footer ? { height: 36 } : undefined}
        padding="md"
      >
        {settings.navbar ? (
          <AppShell.Header>
            <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm" className="ps-header-bar">
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                {showMenu ? (
                  hydrated ? (
                    <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('common.menu')} aria-controls="app-menu" aria-expanded={opened}>
                      <VisuallyHidden>{t('common.menu')}</VisuallyHidden>
                    </Burger>
                  ) : (
                    // Without JavaScript the burger is a link to the menu, which CSS shows while it is the target.
                    // Its name as text too, for a text browser (issue 23).
                    <Burger renderRoot={(props) => <a {...props} href="#app-menu" />} opened={false} hiddenFrom="sm" size="sm" aria-label={t('common.menu')}>
                      <VisuallyHidden>{t('common.menu')}</VisuallyHidden>
                    </Burger>
                  )
                ) : null}
                {/* The page's one <h1> (issue 23): the site's name; each page's own title is its <h2>. */}
                <Title order={1} fz="md" lh="inherit" style={{ flexShrink: 0 }}>
                  <UnstyledButton component={Link} to="/dashboard/workplace" fw={700} c="var(--mantine-color-anchor)">
                    {t('common.siteName')}
                  </UnstyledButton>
                </Title>
                {showMenu && settings.topMenu ? (
                  // Named apart from the side menu (#app-menu, a phone's in this layout): two landmarks of one name are one too many.
                  <Group component="nav" aria-label={t('shell.settings.topMenu')} visibleFrom="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                    <TopMenu {...menuProps} />
                  </Group>
                ) : null}
              </Group>
              <Group gap="sm" wrap="nowrap">
                <LocaleSwitch />
                <TextSep />
                <UnreadBadge />
                <TextSep />
                <SettingsButton open={openSettings} href={settingsHref} />
                <Text size="sm" visibleFrom="xs" data-testid="current-user">
                  {user.user_name}
                  {user.role === 'admin' ? ` · ${t('users.roles.admin')}` : ''}
                </Text>
                <Form method="post" action="/logout">
                  <Button type="submit" variant="subtle" size="compact-sm">
                    {t('auth.logout')}
                  </Button>
                </Form>
              </Group>
            </Group>
          </AppShell.Header>
        ) : (
          <SettingsButton open={openSettings} href={settingsHref} floating />
        )}
        <AppShell.Main id="main" tabIndex={-1}>
          {settings.navbar ? null : <VisuallyHidden component="h1">{t('common.siteName')}</VisuallyHidden>}
          {SettingsDrawer && (drawerUsed || drawerOpen) ? (
            <SettingsDrawer
              opened={drawerOpen}
              onClose={() => {
                settingsDrawer.close()
                if (settingsInUrl) navigate(closeTo, { replace: true, preventScrollReset: true })
              }}
              closeTo={closeTo}
            />
          ) : null}
          {settings.tabBar && tabs ? <TabBar paths={tabs} menu={menu} /> : null}
          {trail.length ? (
            <Breadcrumbs mb="sm" fz="sm" separatorMargin={6} component="nav" aria-label={t('shell.breadcrumbs')} data-testid="breadcrumbs">
              {trail.map((item, i) =>
                // The current page's own entry is text: a link to itself is one more stop before the page (issue 23).
                i === trail.length - 1 && !item.children?.length && item.path !== pathname ? (
                  <Anchor key={item.path} component={Link} to={item.path} size="sm" aria-current="page" c="dimmed">
                    {t(item.name)}
                  </Anchor>
                ) : (
                  <Text key={item.path} size="sm" c="dimmed" component="span" aria-current={item.path === pathname ? 'page' : undefined}>
                    {t(item.name)}
                  </Text>
                ),
              )}
            </Breadcrumbs>
          ) : null}
          <LayoutHoldsH1.Provider value={true}>{children}</LayoutHoldsH1.Provider>
        </AppShell.Main>
        {/* After the page in source order, so a text browser or a keyboard reaches the page first (issue 23). */}
        {showMenu ? (
          <AppShell.Navbar p="xs" id="app-menu" aria-label={t('common.menu')} component="nav" data-collapsed={settings.menuCollapse || undefined}>
            {menuFailed ? (
              <Text size="xs" c="red" role="alert" mb="xs">
                {t('shell.menu.failed')}
              </Text>
            ) : null}
            {settings.menuCollapse ? (
              <>
                <div className="ps-collapsed-menu" data-testid="collapsed-menu">
                  <CollapsedMenu {...menuProps} />
                </div>
              </>
            ) : (
              <div className="ps-navbar-scroll">
                <MenuTree {...menuProps} markCurrent />
              </div>
            )}
            <MenuCollapseToggle collapsed={settings.menuCollapse} redirectTo={closeTo} />
          </AppShell.Navbar>
        ) : null}
        {settings.footer ? (
          <AppShell.Footer px="md" component="footer">
            <Group h="100%" gap="md">
              <Text size="xs" c="dimmed">
                © PayShare
              </Text>
              <Text size="xs" component={Link} to="/agreement/user-agreement" c="dimmed">
                {t('pages.agreement.userAgreement')}
              </Text>
              <Text size="xs" component={Link} to="/agreement/user-privacy" c="dimmed">
                {t('pages.agreement.privacy')}
              </Text>
            </Group>
          </AppShell.Footer>
        ) : null}
      </AppShell>
    </RoleContext.Provider>
  )
}

/** The navbar's collapse / expand button: the settings form with this one switch (works without JS). */
function MenuCollapseToggle({ collapsed, redirectTo }: { collapsed: boolean; redirectTo: string }) {
  const { t } = useTranslation()
  const label = collapsed ? t('shell.menu.expand') : t('shell.menu.collapse')
  return (
    <Form method="post" action="/settings" className="ps-collapse-toggle">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <input type="hidden" name="present" value="menuCollapse" />
      {collapsed ? null : <input type="hidden" name="menuCollapse" value="on" />}
      <ActionIcon type="submit" variant="subtle" color="gray" aria-label={label} title={label}>
        {collapsed ? '»' : '«'}
      </ActionIcon>
    </Form>
  )
}
