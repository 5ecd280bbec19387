import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { UNICODE_PATTERN } from '#contract/codes.ts'
import { REPORT_DESCRIPTION_MAX, REPORT_REASONS, reportCreateSchema, reportsApi, type ReportStatusView } from '#contract/moderation.ts'
import { shareApi } from '#contract/shares.ts'
import { PublicError, PublicShell } from '#app/components/layout/public-shell.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'
import { readForm, serviceUnavailable } from '#app/.server/request.ts'
import { formatDateTime } from '#app/utils/format.ts'

export const handle: RouteHandle = { hydrate: false }

const FIELD_STYLE = { display: 'block', width: '100%', boxSizing: 'border-box', font: 'inherit', fontSize: 16, padding: '10px 12px', border: '1px solid #c9cdd4', borderRadius: 6, marginTop: 6 } as const

/** Unknown shares (and deleted ones) cannot be reported: the page says so with a 404. */
function notFound(): never {
  throw data({ key: 'moderation.public.notFound' }, { status: 404 })
}

/**
 * `/share/{unicode}/report` (issue 9): the report form of a share, a plain HTML page with no client
 * JavaScript (like the share page it comes from); after sending, `?no=<id>` shows the report's number
 * and progress — found by the number AND the share's code, so it tells a stranger nothing.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const unicode = params.unicode ?? ''
  if (!UNICODE_PATTERN.test(unicode)) notFound()
  const no = new URL(request.url).searchParams.get('no')
  const token = await getToken(request)
  try {
    const share = await api(request, shareApi.lookup, { query: { unicode } })
    let report: ReportStatusView | null = null
    if (no !== null) {
      report = await api(request, reportsApi.status, { query: { id: no, unicode } }).catch((e: unknown) => {
        if (e instanceof ApiError && (e.status === 404 || e.status === 422)) throw data({ key: 'moderation.public.reportNotFound' }, { status: 404 })
        throw e
      })
    }
    return { share: { unicode: share.unicode, title: share.title }, report, loggedIn: Boolean(token) }
  } catch (e) {
    if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
    if (e instanceof ApiError && (e.status === 404 || e.status === 422)) notFound()
    throw e
  }
}

type ActionData = { fieldErrors: Record<string, string[]>; formError?: string; values: { reason: string; description: string } }

export async function action({ request, params }: ActionFunctionArgs) {
  const unicode = params.unicode ?? ''
  if (!UNICODE_PATTERN.test(unicode)) notFound()
  const form = await readForm(request)
  const values = { reason: String(form.get('reason') ?? ''), description: String(form.get('description') ?? '') }
  const parsed = reportCreateSchema.safeParse({ unicode, ...values })
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message)
    return data<ActionData>({ fieldErrors, values }, { status: 400 })
  }
  const token = await getToken(request)
  const send = (withToken: boolean) => api(request, reportsApi.create, { token: withToken ? token : null, body: parsed.data })
  try {
    // A dead session must not stop a report: send it again as a visitor.
    const { id } = await send(true).catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 401 && token) return send(false)
      throw e
    })
    return redirect(`/share/${unicode}/report?no=${id}`)
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) notFound()
    if (e instanceof ApiError && e.status === 422) return data<ActionData>({ fieldErrors: e.fieldErrors ?? {}, formError: e.fieldErrors ? undefined : e.msg, values }, { status: 400 })
    if (e instanceof ApiError && e.status < 500) return data<ActionData>({ fieldErrors: {}, formError: e.msg, values }, { status: e.status })
    if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
    throw e
  }
}

function ReportProgress({ report }: { report: ReportStatusView }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="report-no">
      <h1 id="report-no">{t('moderation.public.doneTitle', { id: report.id })}</h1>
      <div className="ps-alert ps-alert-ok" role="status">
        {t('moderation.public.received')}
      </div>
      <ul className="ps-meta">
        <li>
          {t('moderation.public.status')}: <b>{t(`moderation.reportStatus.${report.status}`)}</b>
        </li>
        <li>
          {t('moderation.public.sentAt')}: {formatDateTime(report.created_at)}
        </li>
        {report.handled_at ? (
          <li>
            {t('moderation.public.handledAt')}: {formatDateTime(report.handled_at)}
          </li>
        ) : null}
      </ul>
      {report.action ? <p className="ps-alert">{t(`moderation.outcome.${report.action}`)}</p> : null}
      <p className="ps-muted">{t('moderation.public.keep')}</p>
    </section>
  )
}

export default function ReportPage() {
  const { t } = useTranslation()
  const { share, report, loggedIn } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const errorOf = (field: string) => actionData?.fieldErrors[field]?.[0]
  const reasonError = errorOf('reason')
  const descriptionError = errorOf('description')
  return (
    <PublicShell loggedIn={loggedIn}>
      <div className="ps-card">
        {report ? (
          <ReportProgress report={report} />
        ) : (
          <>
            <h1>{t('moderation.public.title')}</h1>
            <p>{t('moderation.public.intro', { title: share.title, unicode: share.unicode })}</p>
            <Form method="post" noValidate>
              <label htmlFor="report-reason">
                <b>{t('moderation.public.reasonLabel')}</b>
              </label>
              <select
                id="report-reason"
                name="reason"
                required
                defaultValue={actionData?.values.reason ?? ''}
                style={FIELD_STYLE}
                aria-invalid={reasonError ? true : undefined}
                aria-describedby={reasonError ? 'report-reason-error' : undefined}
              >
                <option value="" disabled>
                  —
                </option>
                {REPORT_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {t(`moderation.reason.${r}`)}
                  </option>
                ))}
              </select>
              {reasonError ? (
                <p className="ps-error" id="report-reason-error">
                  {t(reasonError, { defaultValue: t('validation.invalid') })}
                </p>
              ) : null}
              <p style={{ marginTop: 16 }}>
                <label htmlFor="report-description">
                  <b>{t('moderation.public.descriptionLabel')}</b>
                </label>
                <textarea
                  id="report-description"
                  name="description"
                  rows={5}
                  maxLength={REPORT_DESCRIPTION_MAX}
                  defaultValue={actionData?.values.description ?? ''}
                  style={FIELD_STYLE}
                  aria-invalid={descriptionError ? true : undefined}
                  aria-describedby="report-description-hint"
                />
                <span className="ps-muted" id="report-description-hint">
                  {descriptionError ? (
                    <span className="ps-error">{t(descriptionError, { defaultValue: t('validation.invalid') })}</span>
                  ) : (
                    t('moderation.public.descriptionHint', { max: REPORT_DESCRIPTION_MAX })
                  )}
                </span>
              </p>
              {actionData?.formError ? (
                <p className="ps-error" role="alert">
                  {t(actionData.formError, { defaultValue: t('errors.error') })}
                </p>
              ) : null}
              <button type="submit" className="ps-btn ps-btn-block">
                {t('moderation.public.submit')}
              </button>
            </Form>
          </>
        )}
        <p style={{ marginTop: 16 }}>
          <Link to={`/share/${share.unicode}`}>{t('moderation.public.backToShare')}</Link>
        </p>
      </div>
    </PublicShell>
  )
}

export const meta: MetaFunction<typeof loader> = ({ params }) => [{ title: params.unicode ?? 'PayShare' }, { name: 'robots', content: 'noindex' }]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    const key = (error.data as { key?: string } | null)?.key ?? (error.status === 404 ? 'moderation.public.notFound' : 'pages.serverError')
    return <PublicError status={error.status} messageKey={key} />
  }
  return <PublicError status={500} messageKey="pages.serverError" />
}
