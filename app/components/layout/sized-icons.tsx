import type { ComponentProps } from 'react'

/**
 * Mantine's radio dot, with a width and height of its own: Mantine sizes its icons in CSS only, so a
 * browser without the stylesheet drew them 300 px wide (issue 23).
 */
export function RadioDot({ size, style, ...others }: ComponentProps<'svg'> & { size?: number | string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      fill="none"
      viewBox="0 0 5 5"
      width="10"
      height="10"
      style={{ width: size, height: size, ...style }}
      aria-hidden="true"
      {...others}
    >
      <circle cx="2.5" cy="2.5" r="2.5" fill="currentColor" />
    </svg>
  )
}

/** Mantine's checkbox tick (or dash, when indeterminate), with a width and height of its own. */
export function CheckboxMark({ indeterminate, ...others }: ComponentProps<'svg'> & { indeterminate?: boolean }) {
  return indeterminate ? (
    <svg xmlns="http://www.w3.org/2000/svg" fill="none" viewBox="0 0 32 6" width="10" height="2" aria-hidden="true" {...others}>
      <rect width="32" height="6" fill="currentColor" rx="3" />
    </svg>
  ) : (
    <svg viewBox="0 0 10 7" fill="none" xmlns="http://www.w3.org/2000/svg" width="10" height="7" aria-hidden="true" {...others}>
      <path
        d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  )
}
