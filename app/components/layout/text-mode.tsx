import { Children, Fragment, type ReactNode } from 'react'

/**
 * The first stop of every page (issue 23): past the header (and the menu) to the page's `#main`; the
 * console's second one goes to the menu (`to`).
 * Shown only while it has the focus (`.ps-skip-link` in styles.css and public.css).
 */
export function SkipLink({ label, to = 'main' }: { label: string; to?: string }) {
  return (
    <a href={`#${to}`} className="ps-skip-link">
      {label}
    </a>
  )
}

/** One " | " between two controls, for browsers without CSS (see `TextSeparated`). */
export function TextSep() {
  return (
    <span className="ps-text-sep" aria-hidden="true">
      {' | '}
    </span>
  )
}

/**
 * Puts a " | " between neighbouring controls for browsers without CSS (issue 23: "预览提现" read as one
 * word in lynx); with the stylesheet it is not displayed and a flex gap does the spacing.
 */
export function TextSeparated({ children }: { children: ReactNode }) {
  return Children.toArray(children)
    .filter(Boolean)
    .map((child, i) => (
      <Fragment key={i}>
        {i > 0 ? <TextSep /> : null}
        {child}
      </Fragment>
    ))
}
