/** The app id electron-builder.yml packages Atrium under; Windows shows notifications only for a known one. */
export const appId = 'dev.atrium.app';
