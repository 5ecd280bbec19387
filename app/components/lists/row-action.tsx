import { Button } from '@mantine/core'
import { Form, Link, useNavigation } from '@remix-run/react'

type RowLinkProps = {
  /** Where it leads: a URL dialog of this list (`dialogs.open(key, id)`). */
  to: string
  label: string
  /** What the row is, for the accessible name (`Edit` alone is ambiguous in a list of twenty): a title, `#12`. */
  item: string
  color?: string
  variant?: 'light' | 'default'
}

/**
 * The row action of every admin list (decision 124): a small link button that opens the row's URL
 * dialog in place (the list keeps its scroll position), named with the row it acts on. A link, so it
 * works without JavaScript.
 */
export function RowLink({ to, label, item, color, variant = 'light' }: RowLinkProps) {
  return (
    <Button component={Link} to={to} preventScrollReset size="compact-xs" variant={variant} color={color} aria-label={`${label} ${item}`}>
      {label}
    </Button>
  )
}

type RowPostProps = {
  /** The row's hidden fields (its id, the new status). */
  fields: Record<string, string | number>
  intent: string
  label: string
  item: string
  color?: string
}

/**
 * A row's one-click POST, for what loses nothing and is turned back at once (enable, put on sale,
 * unban, ask the gateway again): a plain form, so it works without JavaScript; busy while this row's
 * post runs.
 */
export function RowPost({ fields, intent, label, item, color }: RowPostProps) {
  const navigation = useNavigation()
  const sent = navigation.state !== 'idle' ? navigation.formData : undefined
  const pending = Boolean(sent && sent.get('intent') === intent && Object.entries(fields).every(([k, v]) => sent.get(k) === String(v)))
  return (
    <Form method="post" preventScrollReset>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" name="intent" value={intent} size="compact-xs" variant="light" color={color} loading={pending} aria-label={`${label} ${item}`}>
        {label}
      </Button>
    </Form>
  )
}
