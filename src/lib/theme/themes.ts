import { createDarkTheme, createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';

/**
 * One brand ramp, a deep lapis-teal like the margins of an illuminated manuscript. Shade 80 is
 * the light theme's brand colour (white text on it: 5.9:1); the dark theme takes its text
 * shades from 110 and 120 so that links and brand text keep AA contrast on dark grey.
 */
export const alchemyBrand: BrandVariants = {
  10: '#020E10',
  20: '#071C1F',
  30: '#0A2B2F',
  40: '#0B383D',
  50: '#0B464C',
  60: '#0A545B',
  70: '#09626A',
  80: '#0A6E75',
  90: '#1F7E85',
  100: '#3A8F95',
  110: '#54A0A5',
  120: '#6DB1B5',
  130: '#88C1C4',
  140: '#A3D1D3',
  150: '#BFE0E2',
  160: '#DCEFF0',
};

const themes: Partial<Record<'light' | 'dark', Theme>> = {};

/** The theme for a mode, built the first time it is asked for (most readers only ever need one). */
export function themeFor(mode: 'light' | 'dark'): Theme {
  themes[mode] ??=
    mode === 'light'
      ? createLightTheme(alchemyBrand)
      : {
          ...createDarkTheme(alchemyBrand),
          colorBrandForeground1: alchemyBrand[110],
          colorBrandForeground2: alchemyBrand[120],
          colorBrandForegroundLink: alchemyBrand[120],
          colorBrandForegroundLinkHover: alchemyBrand[130],
          colorBrandForegroundLinkPressed: alchemyBrand[110],
        };
  return themes[mode];
}
