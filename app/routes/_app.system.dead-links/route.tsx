import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { adminLinkListQuerySchema, type LinkCheck, linksApi, type LinkSummary, LINK_STATES } from '#contract/links.ts'
import { idSchema } from '#contract/users.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'
import { type ListHandle, ListPage } from '#app/components/lists/list-page.tsx'
import { ShareCodeLink } from '#app/components/shares/shares.tsx'
import { api } from '#app/.server/api.ts'
import { requireAdmin } from '#app/.server/auth.ts'
import { pageError, rowError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery, listUrl } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { formatDateTime } from '#app/utils/format.ts'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

/** The page is a list: the shell's skip links lead to it (decision 123). */
export const handle: ListHandle = { list: true }

/** Filters (issue 25): the link's state (or "sales stopped"), the seller, the host. `?history=<id>` opens a share's checks. */
const FILTERS = ['state', 'seller', 'host'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  try {
    const query = listQuery(request, adminLinkListQuerySchema, FILTERS)
    const page = await api(request, linksApi.adminList, { token, query })
    const asked = idSchema.safeParse(new URL(request.url).searchParams.get('history'))
    const row = asked.success ? page.list.find((r) => r.share_id === asked.data) : undefined
    const history = row ? { title: row.title, id: row.share_id, list: (await api(request, linksApi.history, { token, query: { id: row.share_id } })).list } : null
    return { title: await pageTitle(request, 'links.page.title'), page, history }
  } catch (e) {
    return pageError(request, e)
  }
}

const checkSchema = z.object({ intent: z.literal('check'), id: idSchema })

/** "Check now" (a plain form, works without JavaScript): the API answers the new result, told in the flash. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireAdmin({ request, context })
  const form = await readForm(request, ['check'])
  const back = listUrl(request)
  const parsed = checkSchema.safeParse(Object.fromEntries(form))
  if (!parsed.success) return redirectWithToast(request, back, { type: 'error', key: 'errors.requestError' })
  try {
    const answer = await api(request, linksApi.checkNow, { token, body: { id: parsed.data.id } })
    const result = answer.link.stopped_at ? 'stopped' : answer.check.result
    return redirectWithToast(request, back, { type: answer.check.result === 'ok' ? 'success' : 'info', key: 'links.page.checked', values: { result } })
  } catch (e) {
    return redirectWithToast(request, back, { type: 'error', key: await rowError(request, e) })
  }
}

function LinkState({ link }: { link: LinkSummary }) {
  const { t } = useTranslation()
  const state = link.stopped_at ? 'stopped' : link.state
  return (
    <Text size="sm" c={state === 'stopped' || state === 'dead' ? 'red' : state === 'ok' ? 'green' : undefined} fw={state === 'stopped' ? 700 : undefined} data-link-state={state}>
      {t(`links.state.${state}`)}
    </Text>
  )
}

function History({ history, closeTo }: { history: { title: string; list: LinkCheck[] }; closeTo: string }) {
  const { t } = useTranslation()
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="link-history">
      <Group justify="space-between">
        <Title order={3} size="h4" id="link-history">
          {t('links.page.historyOf', { title: history.title })}
        </Title>
        <Anchor component={Link} to={closeTo} size="sm">
          {t('links.page.closeHistory')}
        </Anchor>
      </Group>
      <Table.ScrollContainer minWidth={600}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('links.column.lastCheck')}</Table.Th>
              <Table.Th>{t('links.column.result')}</Table.Th>
              <Table.Th>{t('links.column.reason')}</Table.Th>
              <Table.Th>{t('links.column.status')}</Table.Th>
              <Table.Th>{t('links.column.trigger')}</Table.Th>
              <Table.Th ta="right">{t('links.column.duration')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.list.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{formatDateTime(c.checked_at)}</Table.Td>
                <Table.Td>{t(`links.state.${c.result}`)}</Table.Td>
                <Table.Td>{c.reason ?? '—'}</Table.Td>
                <Table.Td>{c.http_status ?? '—'}</Table.Td>
                <Table.Td>{t(`links.trigger.${c.trigger}`)}</Table.Td>
                <Table.Td ta="right">{c.duration_ms} ms</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  )
}

/** The admin's Dead links page (issue 25): stopped and dead links first, each one's check history and "check now". */
export default function DeadLinks() {
  const { t } = useTranslation()
  const { page, history } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  const withHistory = (id: number | null) => {
    const next = new URLSearchParams(params)
    if (id === null) next.delete('history')
    else next.set('history', String(id))
    const search = next.toString()
    return search ? `?${search}` : '.'
  }
  return (
    <Stack>
      <ListPage
        title={t('links.page.title')}
        filters={
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('links.page.intro')}
            </Text>
            <FilterForm>
              <SelectFilter name="state" label={t('links.filter.state')} options={[...LINK_STATES, 'stopped'].map((v) => [v, t(`links.state.${v}`)] as const)} />
              <TextFilter name="seller" label={t('links.filter.seller')} />
              <TextFilter name="host" label={t('links.filter.host')} />
            </FilterForm>
          </Stack>
        }
        page={page}
        minWidth={1000}
        head={
          <>
            <Table.Th>{t('links.column.share')}</Table.Th>
            <Table.Th>{t('links.column.seller')}</Table.Th>
            <Table.Th>{t('links.column.host')}</Table.Th>
            <Table.Th>{t('links.column.state')}</Table.Th>
            <Table.Th>{t('links.column.reason')}</Table.Th>
            <Table.Th>{t('links.column.lastCheck')}</Table.Th>
            <Table.Th>{t('links.column.stoppedAt')}</Table.Th>
            <Table.Th ta="right">{t('links.column.checks')}</Table.Th>
            <Table.Th className="ps-actions">{t('common.actions')}</Table.Th>
          </>
        }
        row={(r) => (
          <Table.Tr key={r.share_id} id={`link-${r.share_id}`}>
            <Table.Td maw={260}>
              <Text size="sm" lineClamp={2} title={r.title}>
                {r.title}
              </Text>
              <ShareCodeLink unicode={r.unicode} newTab />
            </Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/system/user-manage/${r.seller_id}`} size="sm">
                {r.user_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{r.host}</Table.Td>
            <Table.Td>
              <LinkState link={r.link} />
            </Table.Td>
            <Table.Td>{r.link.reason ?? '—'}</Table.Td>
            <Table.Td>{r.link.checked_at ? formatDateTime(r.link.checked_at) : t('links.never')}</Table.Td>
            <Table.Td>{r.link.stopped_at ? formatDateTime(r.link.stopped_at) : '—'}</Table.Td>
            <Table.Td ta="right">
              {r.checks} ({r.dead_checks})
            </Table.Td>
            <Table.Td className="ps-actions">
              <Group gap={4} wrap="nowrap">
                <TextSeparated>
                <Form method="post">
                  <input type="hidden" name="id" value={r.share_id} />
                  <Button type="submit" name="intent" value="check" size="compact-xs" aria-label={`${t('links.page.checkNow')} ${r.title}`}>
                    {t('links.page.checkNow')}
                  </Button>
                </Form>
                <Button component={Link} to={withHistory(r.share_id)} preventScrollReset size="compact-xs" variant="default" aria-label={`${t('links.page.history')} ${r.title}`}>
                  {t('links.page.history')}
                </Button>
                </TextSeparated>
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />
      {history ? <History history={history} closeTo={withHistory(null)} /> : null}
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
