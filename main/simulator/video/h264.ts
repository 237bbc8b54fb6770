import { BitWriter, escapeEmulation } from './bit-writer.ts';
import { levelFor } from './h264-level.ts';
import type { Yuv420 } from './yuv.ts';

/**
 * An H.264 Constrained Baseline encoder that needs no transform: every macroblock is I_PCM
 * (its raw 4:2:0 samples), every picture one IDR slice. Big (384 bytes a macroblock) but
 * exact, tiny to write, and played by every H.264 decoder. Syntax per ITU-T H.264 §7.3.
 */

export interface H264Stream {
  /** Parameter set NAL units (header byte included, emulation-prevented), for the avcC box. */
  sps: Buffer;
  pps: Buffer;
  profileIdc: number;
  /** The constraint_set flags byte (profile_compatibility in avcC). */
  constraintFlags: number;
  levelIdc: number;
  /** One coded slice NAL unit per picture, in decode (= display) order. */
  pictures: Buffer[];
}

const PROFILE_BASELINE = 66;
/** constraint_set0 and constraint_set1: Baseline that Main decoders also accept (Constrained). */
const CONSTRAINED_BASELINE_FLAGS = 0b1100_0000;
const NAL_SLICE_IDR = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;
const SLICE_TYPE_I_ONLY = 7;
const MB_TYPE_I_PCM = 25;
/** frame_num is always 0 (every picture is an IDR), so its smallest width will do. */
const LOG2_MAX_FRAME_NUM = 4;
/** BT.601 (SMPTE 170M) primaries, transfer and matrix, as rgbToYuv420 converts. */
const COLOUR_BT601 = 6;

/** A NAL unit: forbidden_zero_bit, nal_ref_idc, nal_unit_type, then the escaped RBSP. */
export function nalUnit(type: number, refIdc: number, rbsp: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(refIdc << 5) | type]), escapeEmulation(rbsp)]);
}

interface Geometry {
  width: number;
  height: number;
  widthMbs: number;
  heightMbs: number;
}

function sequenceParameterSet(g: Geometry, levelIdc: number): Buffer {
  const w = new BitWriter()
    .u(8, PROFILE_BASELINE)
    .u(8, CONSTRAINED_BASELINE_FLAGS)
    .u(8, levelIdc)
    .ue(0) // seq_parameter_set_id
    .ue(LOG2_MAX_FRAME_NUM - 4)
    .ue(2) // pic_order_cnt_type 2: display order is decode order
    .ue(1) // max_num_ref_frames
    .flag(false) // gaps_in_frame_num_value_allowed_flag
    .ue(g.widthMbs - 1)
    .ue(g.heightMbs - 1)
    .flag(true) // frame_mbs_only_flag
    .flag(true); // direct_8x8_inference_flag
  // Crop the padding to whole macroblocks; 4:2:0 crops in units of 2 luma samples.
  const cropRight = (g.widthMbs * 16 - g.width) / 2;
  const cropBottom = (g.heightMbs * 16 - g.height) / 2;
  w.flag(cropRight > 0 || cropBottom > 0);
  if (cropRight > 0 || cropBottom > 0) w.ue(0).ue(cropRight).ue(0).ue(cropBottom);
  w.flag(true); // vui_parameters_present_flag
  w.flag(false) // aspect_ratio_info_present_flag: square pixels are the default
    .flag(false) // overscan_info_present_flag
    .flag(true) // video_signal_type_present_flag
    .u(3, 5) // video_format: unspecified
    .flag(false) // video_full_range_flag: limited range
    .flag(true) // colour_description_present_flag
    .u(8, COLOUR_BT601)
    .u(8, COLOUR_BT601)
    .u(8, COLOUR_BT601)
    .flag(false) // chroma_loc_info_present_flag
    .flag(false) // timing_info_present_flag: the MP4 carries the timing
    .flag(false) // nal_hrd_parameters_present_flag
    .flag(false) // vcl_hrd_parameters_present_flag
    .flag(false) // pic_struct_present_flag
    .flag(true) // bitstream_restriction_flag: lets decoders output each frame at once
    .flag(true) // motion_vectors_over_pic_boundaries_flag
    .ue(0) // max_bytes_per_pic_denom
    .ue(0) // max_bits_per_mb_denom
    .ue(11) // log2_max_mv_length_horizontal
    .ue(11) // log2_max_mv_length_vertical
    .ue(0) // max_num_reorder_frames
    .ue(1); // max_dec_frame_buffering
  return nalUnit(NAL_SPS, 3, w.trailingBits().toBuffer());
}

function pictureParameterSet(): Buffer {
  const w = new BitWriter()
    .ue(0) // pic_parameter_set_id
    .ue(0) // seq_parameter_set_id
    .flag(false) // entropy_coding_mode_flag: CAVLC
    .flag(false) // bottom_field_pic_order_in_frame_present_flag
    .ue(0) // num_slice_groups_minus1
    .ue(0) // num_ref_idx_l0_default_active_minus1
    .ue(0) // num_ref_idx_l1_default_active_minus1
    .flag(false) // weighted_pred_flag
    .u(2, 0) // weighted_bipred_idc
    .se(0) // pic_init_qp_minus26
    .se(0) // pic_init_qs_minus26
    .se(0) // chroma_qp_index_offset
    .flag(true) // deblocking_filter_control_present_flag: so slices can turn it off
    .flag(false) // constrained_intra_pred_flag
    .flag(false); // redundant_pic_cnt_present_flag
  return nalUnit(NAL_PPS, 3, w.trailingBits().toBuffer());
}

/** One IDR slice holding the whole picture as I_PCM macroblocks in raster order. */
function idrSlice(picture: Yuv420, idrPicId: number): Buffer {
  const w = new BitWriter()
    .ue(0) // first_mb_in_slice
    .ue(SLICE_TYPE_I_ONLY)
    .ue(0) // pic_parameter_set_id
    .u(LOG2_MAX_FRAME_NUM, 0) // frame_num
    .ue(idrPicId)
    .flag(false) // dec_ref_pic_marking: no_output_of_prior_pics_flag
    .flag(false) // long_term_reference_flag
    .se(0) // slice_qp_delta
    .ue(1); // disable_deblocking_filter_idc: raw samples need no smoothing
  const { lumaWidth, lumaHeight, y, u, v } = picture;
  const chromaWidth = lumaWidth / 2;
  const block = new Uint8Array(384);
  for (let mbY = 0; mbY < lumaHeight / 16; mbY++) {
    for (let mbX = 0; mbX < lumaWidth / 16; mbX++) {
      w.ue(MB_TYPE_I_PCM).alignWithZeros(); // pcm_alignment_zero_bit
      // pcm_sample_luma: 16×16 in raster order, then pcm_sample_chroma: Cb 8×8, Cr 8×8.
      for (let row = 0; row < 16; row++) {
        const from = (mbY * 16 + row) * lumaWidth + mbX * 16;
        block.set(y.subarray(from, from + 16), row * 16);
      }
      for (let row = 0; row < 8; row++) {
        const from = (mbY * 8 + row) * chromaWidth + mbX * 8;
        block.set(u.subarray(from, from + 8), 256 + row * 8);
        block.set(v.subarray(from, from + 8), 320 + row * 8);
      }
      w.raw(block);
    }
  }
  return nalUnit(NAL_SLICE_IDR, 3, w.trailingBits().toBuffer());
}

/**
 * Encodes pictures of one size as an all-intra H.264 stream. Consecutive IDR pictures must
 * differ in idr_pic_id (§7.4.3), so it alternates 0 and 1.
 */
export function encodeH264(pictures: readonly Yuv420[], framesPerSecond: number): H264Stream {
  const [first] = pictures;
  if (!first) throw new Error('An H.264 stream needs at least one picture.');
  const g: Geometry = {
    width: first.width,
    height: first.height,
    widthMbs: first.lumaWidth / 16,
    heightMbs: first.lumaHeight / 16,
  };
  if (g.width % 2 !== 0 || g.height % 2 !== 0) {
    throw new Error(`4:2:0 H.264 needs even sides; got ${g.width}×${g.height}.`);
  }
  for (const p of pictures) {
    if (p.width !== g.width || p.height !== g.height || p.lumaWidth !== first.lumaWidth) {
      throw new Error(`Every picture must be ${g.width}×${g.height}; got ${p.width}×${p.height}.`);
    }
  }
  const coded = pictures.map((picture, i) => idrSlice(picture, i % 2));
  const levelIdc = levelFor({
    widthMbs: g.widthMbs,
    heightMbs: g.heightMbs,
    framesPerSecond,
    frameBytes: Math.max(...coded.map((c) => c.length)),
  });
  return {
    sps: sequenceParameterSet(g, levelIdc),
    pps: pictureParameterSet(),
    profileIdc: PROFILE_BASELINE,
    constraintFlags: CONSTRAINED_BASELINE_FLAGS,
    levelIdc,
    pictures: coded,
  };
}
