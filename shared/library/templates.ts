/**
 * The file name template a new data folder starts with (its settings file written with it):
 * the model and the size in every name, so the images of a matrix (one prompt across models
 * and sizes) are told apart at a glance. A data folder whose settings say `template: null`
 * keeps the earlier default, `{batch}/{index}-{slug}-{seed}.{ext}` (core naming/template.ts).
 */
export const NEW_FOLDER_TEMPLATE = '{batch}/{index}-{slug}-{model}-{size}-{seed}.{ext}';
