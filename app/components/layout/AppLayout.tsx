import { AccordionChevron, AppShell, Box, Burger, Button, Group, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Form, Link, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { MenuItem } from '#contract/menu.ts'
import type { User } from '#contract/users.ts'
import { LocaleSwitch } from './LocaleSwitch.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'

/** SPEC §3 settings: menu width 220, navbar, menu and footer on. */
const MENU_WIDTH = 220

/**
 * The role menu. A group is a `<details>` whose `<summary>` opens it, so every entry is reachable
 * without JavaScript too (issue 13); the group of the current page starts open.
 */
function MenuTree({ items, pathname }: { items: MenuItem[]; pathname: string }) {
  const { t } = useTranslation()
  return (
    <>
      {items.map((item) =>
        item.children?.length ? (
          <details key={item.path} className="ps-menu-group" open={pathname.startsWith(item.path) || undefined}>
            <NavLink component="summary" label={t(item.name)} rightSection={<AccordionChevron className="ps-menu-chevron" size={14} />} />
            <Box pl={16}>
              <MenuTree items={item.children} pathname={pathname} />
            </Box>
          </details>
        ) : (
          <NavLink key={item.path} component={Link} to={item.path} prefetch="intent" label={t(item.name)} active={pathname.startsWith(item.path)} />
        ),
      )}
    </>
  )
}

/** The default layout of logged-in pages: header (locale, user, logout), role menu, content, footer. */
export function AppLayout({ user, menu, children }: { user: User; menu: MenuItem[]; children: ReactNode }) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const [opened, { toggle }] = useDisclosure(false)
  const hydrated = useHydrated()
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: MENU_WIDTH, breakpoint: 'sm', collapsed: { mobile: !opened } }} footer={{ height: 36 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            {hydrated ? (
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('common.menu')} aria-controls="app-menu" aria-expanded={opened} />
            ) : (
              // Without JavaScript the burger is a link to the menu, which CSS shows while it is the target.
              <Burger renderRoot={(props) => <a {...props} href="#app-menu" />} opened={false} hiddenFrom="sm" size="sm" aria-label={t('common.menu')} />
            )}
            <UnstyledButton component={Link} to="/dashboard/workplace">
              <Text fw={700} c="arcoblue">
                {t('common.siteName')}
              </Text>
            </UnstyledButton>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <LocaleSwitch />
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
      <AppShell.Navbar p="xs" id="app-menu" aria-label={t('common.menu')}>
        <ScrollArea>
          <nav>
            <MenuTree items={menu} pathname={pathname} />
          </nav>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
      <AppShell.Footer px="md">
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
    </AppShell>
  )
}
