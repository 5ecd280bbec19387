import { Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { Page } from '#contract/envelope.ts'
import { adminShareListQuerySchema, type PublicShare, type ShareStatus } from '#contract/shares.ts'
import { ConfirmDialog, useUrlDialogs } from '~/components/dialog.tsx'
import { GeneralErrorBoundary } from '~/components/error-boundary.tsx'
import { FormErrors, useIsPending } from '~/components/forms.tsx'
import { Pager } from '~/components/list.tsx'
import { DateTimeCell, ShareFilters, ShareStatusBadge, yuan } from '~/components/shares.tsx'
import { callApi } from '~/.server/api.ts'
import { requireAdmin } from '~/.server/auth.ts'
import { loaderApiError } from '~/.server/forms.ts'
import { pageTitle } from '~/.server/i18n.ts'
import { listQuery, listUrl, rowActionError } from '~/.server/lists.ts'
import { redirectWithToast } from '~/.server/toast.ts'

/** `?ban=<id>` opens the confirm step of a ban (final, SPEC §4: not appealable). */
const DIALOGS = ['ban'] as const

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await requireAdmin(request)
  const query = listQuery(request, adminShareListQuerySchema, ['keyword', 'type', 'status', 'sort', 'order'])
  try {
    const page = await callApi<Page<PublicShare>>(request, '/api/shares/admin/list', { token, query })
    const banId = Number(new URL(request.url).searchParams.get('ban'))
    const ban = page.list.find((s) => s.id === banId && s.status !== 'violation')
    return {
      title: await pageTitle(request, 'menu.adminShares'),
      page,
      toBan: ban ? { id: ban.id, title: ban.title, unicode: ban.unicode, seller: ban.user_name } : null,
    }
  } catch (e) {
    return loaderApiError(request, e)
  }
}

/** The moves an admin may make (DESIGN §3, server/src/domain/shares/rules.ts), one intent each. */
const MOVES = { approve: 'approved', takeDown: 'reported_invalid', ban: 'violation' } as const satisfies Record<string, ShareStatus>
type Move = keyof typeof MOVES
const ACTIONS_FOR: Record<ShareStatus, Move[]> = {
  under_review: ['approve', 'ban'],
  approved: ['takeDown', 'ban'],
  reported_invalid: ['approve', 'ban'],
  violation: [],
}

const actionSchema = z.object({ intent: z.enum(['approve', 'takeDown', 'ban']), id: z.coerce.number().int().positive() })

export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireAdmin(request)
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) return data({ error: 'errors.badRequest' }, { status: 400 })
  const { intent, id } = parsed.data
  try {
    await callApi(request, '/api/shares/admin/update', { token, body: { id, status: MOVES[intent] } })
  } catch (e) {
    return data({ error: await rowActionError(request, e) }, { status: 400 })
  }
  return redirectWithToast(request, listUrl(request, DIALOGS), { type: 'success', key: 'common.editSuccess' })
}

function MoveButton({ id, move, label, title }: { id: number; move: 'approve' | 'takeDown'; label: string; title: string }) {
  const pending = useIsPending({ intent: move })
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="id" value={id} />
      <Button type="submit" name="intent" value={move} size="compact-xs" variant="light" color={move === 'approve' ? 'green' : 'orange'} loading={pending} aria-label={`${label} ${title}`}>
        {label}
      </Button>
    </Form>
  )
}

export default function AdminShares() {
  const { t } = useTranslation()
  const { page, toBan } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const dialogs = useUrlDialogs(DIALOGS)
  return (
    <Stack>
      <Title order={2}>{t('menu.adminShares')}</Title>
      <ShareFilters textFilter="keyword" />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      {toBan ? (
        <ConfirmDialog
          title={t('shares.admin.confirmBanTitle')}
          action={dialogs.closed}
          closeTo={dialogs.closed}
          intent="ban"
          fields={{ id: toBan.id }}
          confirmLabel={t('shares.admin.ban')}
        >
          {t('shares.admin.confirmBanText', toBan)}
        </ConfirmDialog>
      ) : null}
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                {t('shares.field.title')} / {t('shares.field.seller')}
              </Table.Th>
              <Table.Th>{t('shares.field.unicode')}</Table.Th>
              <Table.Th>{t('shares.field.type')}</Table.Th>
              <Table.Th ta="right">{t('shares.field.price')}</Table.Th>
              <Table.Th ta="right">{t('shares.field.visits')}</Table.Th>
              <Table.Th ta="right">{t('shares.field.purchases')}</Table.Th>
              <Table.Th>{t('shares.field.status')}</Table.Th>
              <Table.Th>{t('shares.field.subscription')}</Table.Th>
              <Table.Th>{t('shares.field.createdAt')}</Table.Th>
              <Table.Th>{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.list.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td maw={260}>
                  <Text size="sm" lineClamp={2}>
                    {s.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {s.user_name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Anchor href={`/share/${s.unicode}`} target="_blank" rel="noopener" ff="monospace" size="sm">
                    {s.unicode}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t(`shares.types.${s.type}`)}</Table.Td>
                <Table.Td ta="right">{yuan(s.price)}</Table.Td>
                <Table.Td ta="right">{s.visit_count}</Table.Td>
                <Table.Td ta="right">{s.purchase_count}</Table.Td>
                <Table.Td>
                  <ShareStatusBadge status={s.status} />
                </Table.Td>
                <Table.Td>{t(`shares.subscription.${s.subscription_status}`)}</Table.Td>
                <Table.Td>
                  <DateTimeCell iso={s.created_at} />
                </Table.Td>
                <Table.Td miw={150}>
                  <Group gap={4}>
                    <Button component="a" href={`/share/${s.unicode}`} target="_blank" rel="noopener" size="compact-xs" variant="default">
                      {t('shares.list.open')}
                    </Button>
                    {ACTIONS_FOR[s.status].map((move) =>
                      move === 'ban' ? (
                        <Button
                          key={move}
                          component={Link}
                          to={dialogs.open('ban', s.id)}
                          preventScrollReset
                          size="compact-xs"
                          variant="light"
                          color="red"
                          aria-label={`${t('shares.admin.ban')} ${s.title}`}
                        >
                          {t('shares.admin.ban')}
                        </Button>
                      ) : (
                        <MoveButton
                          key={move}
                          id={s.id}
                          move={move}
                          title={s.title}
                          // SPEC §4: a taken-down share is recovered, a new one approved.
                          label={move === 'takeDown' ? t('shares.admin.takeDown') : s.status === 'reported_invalid' ? t('shares.admin.recover') : t('shares.admin.approve')}
                        />
                      ),
                    )}
                    {s.status === 'violation' ? (
                      <Text size="xs" c="dimmed">
                        {t('shares.admin.final')}
                      </Text>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {page.list.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      <Pager total={page.total} pageNum={page.pageNum} pageSize={page.pageSize} />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
