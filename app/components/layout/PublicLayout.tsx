import { Anchor, Box, Container, Group, Text } from '@mantine/core'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LocaleSwitch } from './LocaleSwitch.tsx'
import { SkipLink } from './text-mode.tsx'

/** Header and footer of the public pages (agreements, share search, share page). */
export function PublicLayout({ children, loggedIn }: { children: ReactNode; loggedIn?: boolean }) {
  const { t } = useTranslation()
  return (
    <Box mih="100vh" bg="gray.0">
      <SkipLink label={t('common.skipToMain')} />
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="md" py="sm">
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to="/" fw={700} c="arcoblue" underline="never">
              {t('common.siteName')}
            </Anchor>
            <Group gap="sm" wrap="nowrap">
              <LocaleSwitch />
              <Anchor component={Link} to={loggedIn ? '/dashboard/workplace' : '/login'} size="sm">
                {loggedIn ? t('menu.workplace') : t('auth.login')}
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container size="md" py="lg" component="main" id="main" tabIndex={-1}>
        {children}
      </Container>
      <Container size="md" pb="lg" component="footer">
        <Group gap="md">
          <Text size="xs" c="dimmed">
            © PayShare
          </Text>
          <Anchor component={Link} to="/agreement/user-agreement" size="xs" c="dimmed">
            {t('pages.agreement.userAgreement')}
          </Anchor>
          <Anchor component={Link} to="/agreement/user-privacy" size="xs" c="dimmed">
            {t('pages.agreement.privacy')}
          </Anchor>
          <Anchor component={Link} to="/agreement/exemptionagree" size="xs" c="dimmed">
            {t('pages.agreement.exemption')}
          </Anchor>
        </Group>
      </Container>
    </Box>
  )
}
