import { Badge } from '@mantine/core'
import { useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { APPEAL_STATUSES, type AppealStatus, REPORT_REASONS, REPORT_STATUSES, type ReportStatus } from '#contract/moderation.ts'
import { DateField } from '#app/components/forms/date-field.tsx'
import { FilterForm, SelectFilter, TextFilter } from '#app/components/lists/filters.tsx'

const NO_SHRINK = { minWidth: 'max-content' } as const
const REPORT_COLORS: Record<ReportStatus, string> = { processing: 'orange', handled: 'green' }
const APPEAL_COLORS: Record<AppealStatus, string> = { pending: 'orange', approved: 'green', banned: 'red' }

export function ReportStatusBadge({ status }: { status: ReportStatus }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={REPORT_COLORS[status]} style={NO_SHRINK}>
      {t(`moderation.reportStatus.${status}`)}
    </Badge>
  )
}

export function AppealStatusBadge({ status }: { status: AppealStatus }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={APPEAL_COLORS[status]} style={NO_SHRINK}>
      {t(`moderation.appealStatus.${status}`)}
    </Badge>
  )
}

/** The GET filter form of the report queue / the appeal list (works without JavaScript). */
export function ModerationFilters({ kind }: { kind: 'reports' | 'appeals' }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  return (
    <FilterForm>
      {kind === 'reports' ? (
        <SelectFilter name="status" label={t('moderation.filter.status')} options={REPORT_STATUSES.map((s) => [s, t(`moderation.reportStatus.${s}`)] as const)} />
      ) : (
        <SelectFilter name="appeal_status" label={t('moderation.filter.appealStatus')} options={APPEAL_STATUSES.map((s) => [s, t(`moderation.appealStatus.${s}`)] as const)} />
      )}
      <TextFilter name="unicode" label={t('moderation.filter.unicode')} maxLength={32} w={140} />
      {kind === 'reports' ? <SelectFilter name="reason" label={t('moderation.filter.reason')} options={REPORT_REASONS.map((r) => [r, t(`moderation.reason.${r}`)] as const)} /> : null}
      <DateField name="from" label={t('moderation.filter.from')} value={params.get('from') ?? ''} />
      <DateField name="to" label={t('moderation.filter.to')} value={params.get('to') ?? ''} />
    </FilterForm>
  )
}
