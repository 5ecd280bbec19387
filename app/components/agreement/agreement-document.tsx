import { List, Paper, Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** An agreement document from the catalogs: a title, an intro and numbered sections. */
export function AgreementDocument({ doc, children }: { doc: 'exemption' | 'userAgreement' | 'privacy'; children?: ReactNode }) {
  const { t } = useTranslation()
  const sections = t(`pages.agreement.docs.${doc}.sections`, { returnObjects: true }) as unknown as string[]
  return (
    <Paper withBorder p="xl" component="article">
      <Stack>
        <Title order={1} fz="h2">
          {t(`pages.agreement.docs.${doc}.title`)}
        </Title>
        <Text c="dimmed" size="sm">
          {t('pages.agreement.updated')}
        </Text>
        <Text>{t(`pages.agreement.docs.${doc}.intro`)}</Text>
        <List type="ordered" spacing="sm">
          {(Array.isArray(sections) ? sections : []).map((s, i) => (
            <List.Item key={i}>
              {/* A span: Mantine puts an item's content in a <span>, where no <p> may go. */}
              <Text size="sm" component="span">
                {s}
              </Text>
            </List.Item>
          ))}
        </List>
        {children}
      </Stack>
    </Paper>
  )
}
