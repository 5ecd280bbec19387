/** SPEC §4 Channel status. */
export const CHANNEL_STATUSES = ['enable', 'disable'] as const
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number]
