import { createTheme, type MantineColorsTuple } from '@mantine/core'

// SPEC §3/§9: primary colour #165DFF (the Arco blue scale around it).
const arcoblue: MantineColorsTuple = ['#E8F3FF', '#BEDAFF', '#94BFFF', '#6AA1FF', '#4080FF', '#165DFF', '#0E42D2', '#072CA6', '#031A79', '#000D4D']

export const theme = createTheme({
  primaryColor: 'arcoblue',
  primaryShade: 5,
  colors: { arcoblue },
  fontFamily: '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
  defaultRadius: 'sm',
})
