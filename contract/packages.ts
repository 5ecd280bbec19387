/** SPEC §4 Package status: on sale or off shelf. */
export const PACKAGE_STATUSES = ['on_sale', 'off_shelf'] as const
export type PackageStatus = (typeof PACKAGE_STATUSES)[number]
