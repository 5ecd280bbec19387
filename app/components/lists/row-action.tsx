import { Button } from '@mantine/core'
import { Link } from '@remix-run/react'

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
