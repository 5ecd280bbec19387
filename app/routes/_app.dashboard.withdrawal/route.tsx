import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { type WithdrawalPreview, withdrawalAmountSchema, withdrawalCreateSchema, withdrawalListQuerySchema, withdrawalsApi } from '#contract/withdrawals.ts'
import { GeneralErrorBoundary } from '#app/components/feedback/error-boundary.tsx'
import { FormErrors, TextField, useIsPending } from '#app/components/forms/fields.tsx'
import { ListPage } from '#app/components/lists/list-page.tsx'
import { yuan } from '#app/components/shares/shares.tsx'
import { WithdrawalCells, WithdrawalFilters, WithdrawalHeadCells } from '#app/components/withdrawals/withdrawals.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { api, ApiError } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/auth.ts'
import { fieldError, pageError } from '#app/.server/failures.ts'
import { pageTitle } from '#app/.server/i18n.ts'
import { listQuery } from '#app/.server/lists.ts'
import { readForm } from '#app/.server/request.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { apiMessage } from '#app/utils/api-message.ts'
import type { PreviewAnswer } from '../_app.dashboard.withdrawal.preview/route.ts'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

const FILTERS = ['status'] as const
/** Where the Alipay details are entered (the settings page, at its Alipay section). */
const ALIPAY_SETTINGS = '/user/setting/alipay#alipay'
/** Refusals about the amount typed: shown at the amount field (the others above the form). */
const AMOUNT_REFUSALS = new Set(['withdrawals.belowMinimum', 'withdrawals.feeExceedsAmount', 'withdrawals.exceedsWithdrawable'])

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token, user } = await requireUser({ request, context })
  const query = listQuery(request, withdrawalListQuerySchema, FILTERS)
  try {
    const [page, info] = await Promise.all([api(request, withdrawalsApi.list, { token, query }), api(request, withdrawalsApi.preview, { token, query: {} })])
    const alipay = user.alipayRealName && user.alipayAccount ? { name: user.alipayRealName, account: user.alipayAccount } : null
    return { title: await pageTitle(request, 'menu.withdrawal'), page, info, alipay }
  } catch (e) {
    return pageError(request, e)
  }
}

type ActionData = { result: SubmissionResult<string[]>; preview?: WithdrawalPreview }

/**
 * intent `preview` (the form's first button, so Enter previews): the figures of the typed amount,
 * rendered with the form — the way to see them without JavaScript. intent `create`: the request.
 * Refusals about the amount come back at the amount field, the others above the form.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { token } = await requireUser({ request, context })
  const formData = await readForm(request, ['preview', 'create'])
  const submission = parseWithZod(formData, { schema: withdrawalCreateSchema })
  if (submission.status !== 'success') return data<ActionData>({ result: submission.reply() }, { status: 400 })
  const { amount } = submission.value
  const refusedWith = (msg: string, status: number) =>
    data<ActionData>({ result: submission.reply(AMOUNT_REFUSALS.has(msg) ? { fieldErrors: { amount: [msg] } } : { formErrors: [msg] }) }, { status })
  try {
    if (formData.get('intent') === 'preview') {
      const preview = await api(request, withdrawalsApi.preview, { token, query: { amount } })
      const refusal = preview.refusal
      const result = refusal ? submission.reply(AMOUNT_REFUSALS.has(refusal) ? { fieldErrors: { amount: [refusal] } } : { formErrors: [refusal] }) : submission.reply()
      return data<ActionData>({ result, preview })
    }
    await api(request, withdrawalsApi.create, { token, body: { amount } })
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return refusedWith(e.msg, 400)
    const res = await fieldError(request, submission, e)
    return data<ActionData>({ result: res.data }, res.init ?? undefined)
  }
  return redirectWithToast(request, '/dashboard/withdrawal', { type: 'success', key: 'withdrawals.created' })
}

/**
 * Amount, service fee and what the seller receives; dimmed while newer figures are on their way. An
 * amount that would be refused previews nothing: "You receive" beside "more than your withdrawable
 * income" read as a promise.
 */
function PreviewFigures({ preview: answer, stale }: { preview: WithdrawalPreview | null | undefined; stale: boolean }) {
  const { t } = useTranslation()
  const preview = answer?.refusal && AMOUNT_REFUSALS.has(answer.refusal) ? null : answer
  const figures = [
    ['previewAmount', preview?.withdrawalAmount],
    ['previewFee', preview?.withdrawalServiceFee],
    ['previewActual', preview?.actualWithdrawalAmount],
  ] as const
  return (
    <Card withBorder bg="var(--mantine-color-gray-0)" padding="sm" aria-live="polite" data-testid="withdrawal-preview" style={{ opacity: stale ? 0.5 : 1 }}>
      {preview?.withdrawalAmount == null ? (
        <Text size="sm" c="dimmed">
          {t('withdrawals.page.previewHint')}
        </Text>
      ) : (
        <SimpleGrid cols={3} spacing="xs">
          {figures.map(([key, value]) => (
            <div key={key}>
              <Text size="xs" c="dimmed">
                {t(`withdrawals.page.${key}`)}
              </Text>
              <Text fw={key === 'previewActual' ? 700 : 500} size="lg" data-testid={`preview-${key}`}>
                {yuan(value)}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      )}
    </Card>
  )
}

function WithdrawForm({ last, canWithdraw }: { last?: ActionData; canWithdraw: boolean }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const creating = useIsPending({ intent: 'create' })
  const previewing = useIsPending({ intent: 'preview' })
  const fetcher = useFetcher<PreviewAnswer>()
  // The amount as typed (text); the schema also takes a JSON number, which a form never sends.
  const [form, fields] = useForm<{ amount: string }, { amount: number }>({
    id: 'withdrawal-form',
    lastResult: last?.result,
    constraint: getZodConstraint(withdrawalCreateSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: withdrawalCreateSchema }),
  })
  const typed = fields.amount.value ?? ''
  const valid = withdrawalAmountSchema.safeParse(typed).success
  // With JavaScript the figures follow the typing (debounced); the Preview button is for pages without it.
  const { load } = fetcher
  useEffect(() => {
    if (!valid) return
    const timer = setTimeout(() => load(`/dashboard/withdrawal/preview?amount=${encodeURIComponent(typed)}`), 300)
    return () => clearTimeout(timer)
  }, [typed, valid, load])
  const live = hydrated && valid && fetcher.data ? fetcher.data : null
  const preview = live ? live.preview : valid ? last?.preview : null
  const refusal = live ? (live.preview?.refusal ?? live.error) : null
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        <TextField meta={fields.amount} label={t('withdrawals.page.amountLabel')} inputMode="decimal" leftSection="¥" maw={320} autoComplete="off" />
        <PreviewFigures preview={preview} stale={hydrated && (fetcher.state !== 'idle' || (live !== null && live.amount !== typed))} />
        {refusal && !fields.amount.errors?.length ? (
          <Text size="sm" c="red.8" role="status">
            {apiMessage(t, refusal)}
          </Text>
        ) : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <TextSeparated>
            {hydrated ? null : (
              <Button type="submit" name="intent" value="preview" variant="default" loading={previewing}>
                {t('withdrawals.page.preview')}
              </Button>
            )}
            <Button type="submit" name="intent" value="create" loading={creating} disabled={!canWithdraw}>
              {t('withdrawals.page.submit')}
            </Button>
          </TextSeparated>
        </Group>
      </Stack>
    </Form>
  )
}

/** A seller's withdrawals (DESIGN §3): the withdrawable income, where it is paid, the request form and the history. */
export default function WithdrawalPage() {
  const { t } = useTranslation()
  const { page, info, alipay } = useLoaderData<typeof loader>()
  const last = useActionData<typeof action>()
  return (
    <Stack maw={1100}>
      <Title order={2}>{t('menu.withdrawal')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder padding="lg">
          <Text size="sm" c="dimmed">
            {t('withdrawals.page.withdrawable')}
          </Text>
          <Text fz={32} fw={700} c={info.withdrawable < 0 ? 'red.8' : undefined} data-testid="withdrawable">
            {yuan(info.withdrawable)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('withdrawals.page.withdrawableHint')}
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            {t('withdrawals.page.rules', { minimum: yuan(info.minimum), rate: info.feeRateBp / 100, feeMinimum: yuan(info.feeMinimum) })}
          </Text>
        </Card>
        <Card withBorder padding="lg">
          <Text size="sm" c="dimmed">
            {t('withdrawals.page.payTo')}
          </Text>
          {alipay ? (
            <>
              <Text fw={600} size="lg" data-testid="alipay-name">
                {alipay.name}
              </Text>
              <Group gap="xs">
                <Text size="sm" data-testid="alipay-account">
                  {alipay.account}
                </Text>
                <Anchor component={Link} to={ALIPAY_SETTINGS} size="sm">
                  {t('withdrawals.page.changeAlipay')}
                </Anchor>
              </Group>
            </>
          ) : (
            <Alert color="orange" variant="light" mt="xs">
              <Text size="sm">{t('withdrawals.page.noAlipay')}</Text>
              <Anchor component={Link} to={ALIPAY_SETTINGS} size="sm" fw={500}>
                {t('withdrawals.page.addAlipay')}
              </Anchor>
            </Alert>
          )}
        </Card>
      </SimpleGrid>
      <Card withBorder padding="lg" maw={640} component="section" aria-labelledby="withdraw-title">
        <Title order={4} id="withdraw-title" mb="sm">
          {t('withdrawals.page.formTitle')}
        </Title>
        {/* A new form after each request (the withdrawable amount changed). */}
        <WithdrawForm key={`${page.total}:${info.withdrawable}`} last={last} canWithdraw={alipay !== null} />
      </Card>
      <ListPage
        title={t('withdrawals.page.history')}
        titleOrder={3}
        filters={<WithdrawalFilters filters={[...FILTERS]} />}
        page={page}
        minWidth={900}
        head={<WithdrawalHeadCells />}
        row={(w) => (
          <Table.Tr key={w.id}>
            <WithdrawalCells w={w} />
          </Table.Tr>
        )}
      />
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
