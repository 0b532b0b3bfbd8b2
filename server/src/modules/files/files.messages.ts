import { moduleMessages } from '../../platform/module-messages.ts';

/** The files module's server texts (uploads, downloads, and the file ids a save binds). */
const texts = {
  'zh-CN': {
    'file.notFound': '文件不存在，或您无权查看',
    'upload.noFile': '请选择要上传的文件',
    'upload.tooLarge': '文件“{name}”超过 {max} 的上限',
    'upload.notImage': '文件“{name}”不是 PNG、JPEG、GIF 或 WebP 图片',
    'upload.blockedType': '不允许上传“{name}”这类文件（可执行程序、脚本、HTML、SVG）',
    'upload.invalid': '上传参数不正确：{message}',
    'upload.notAccepted': '文件“{name}”的类型不被接受，只能上传 {accept}',
    'thumbnail.notImage': '只有图片有缩略图',
    'thumbnail.failed': '无法读取图片“{name}”，不能生成缩略图',
    'bind.unknown': '“{title}”：文件不存在、已删除或不属于此字段',
    'bind.notYours': '“{title}”：不能使用其他人上传的文件',
    'bind.otherRecord': '“{title}”：文件属于另一条记录',
  },
  'en-US': {
    'file.notFound': 'The file does not exist or you may not see it',
    'upload.noFile': 'Choose a file to upload',
    'upload.tooLarge': 'File "{name}" is larger than the limit of {max}',
    'upload.notImage': 'File "{name}" is not a PNG, JPEG, GIF or WebP image',
    'upload.blockedType': 'Files such as "{name}" cannot be uploaded (programs, scripts, HTML, SVG)',
    'upload.invalid': 'The upload is not valid: {message}',
    'upload.notAccepted': 'File "{name}" is not accepted here; only {accept}',
    'thumbnail.notImage': 'Only images have thumbnails',
    'thumbnail.failed': 'Image "{name}" cannot be read, so it has no thumbnail',
    'bind.unknown': '"{title}": a file does not exist, was deleted or belongs to another field',
    'bind.notYours': '"{title}": a file uploaded by someone else cannot be used',
    'bind.otherRecord': '"{title}": a file belongs to another record',
  },
} as const;

export type FileMessageKey = keyof (typeof texts)['zh-CN'];
export const fileMessages = moduleMessages<FileMessageKey>(texts, 'files');
