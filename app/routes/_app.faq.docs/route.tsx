import { Paper, Stack, Text, Title } from '@mantine/core'
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useTranslation } from 'react-i18next'
import { requireUser } from '#app/.server/auth.ts'
import { pageTitle } from '#app/.server/i18n.ts'

const QUESTIONS = ['whatIs', 'buy', 'sell', 'phone', 'codes', 'withdraw', 'lost', 'report'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context })
  return { title: await pageTitle(request, 'menu.faq') }
}

/** Frequently asked questions. Native <details> so every answer opens without JavaScript too. */
export default function FaqDocs() {
  const { t } = useTranslation()
  return (
    <Stack maw={820}>
      <Title order={2}>{t('pages.faq.title')}</Title>
      {QUESTIONS.map((q) => (
        <Paper key={q} withBorder p="md" component="details">
          <Text component="summary" fw={500} style={{ cursor: 'pointer' }}>
            {t(`pages.faq.q.${q}`)}
          </Text>
          <Text size="sm" mt="sm">
            {t(`pages.faq.a.${q}`)}
          </Text>
        </Paper>
      ))}
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
