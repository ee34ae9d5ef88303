/**
 * The written mapping from device-detector's device types to ours (decisions.md: Desktop,
 * Mobile, Tablet, Unknown), and what "mainstream" means for the device-type figure.
 * docs/derivations.md explains each line.
 */
import type { DeviceType } from '../../packages/core/src/derive/user-agent.js';

/** device-detector device type -> ours; `null` = not comparable (the reason is in `NOT_COMPARABLE`). */
export const DEVICE_TYPE_NAMES: Readonly<Record<string, DeviceType | null>> = {
  desktop: 'Desktop',
  smartphone: 'Mobile',
  // A large-screen phone is a phone.
  phablet: 'Mobile',
  'feature phone': 'Mobile',
  tablet: 'Tablet',
  // Handhelds that are not phones: an iPod touch or a Walkman browses like a phone (GA4 files
  // them under mobile), and our derivation files watches and VR headsets as Mobile.
  'portable media player': 'Mobile',
  wearable: 'Mobile',
  // Devices that are none of desktop, phone or tablet: user-agent.ts calls them Unknown
  // (decisions.md has no type for them), so Unknown is the agreeing answer.
  tv: 'Unknown',
  console: 'Unknown',
  'car browser': 'Unknown',
  camera: 'Unknown',
  'smart display': 'Unknown',
  'smart speaker': 'Unknown',
  peripheral: 'Unknown',
  // device-detector names no type: it does not know either, so there is nothing to agree with.
  '': null,
};

/** Why a device type with no counterpart is left out. */
export const NOT_COMPARABLE = 'device-detector names no device type';

/**
 * The device types of mainstream traffic: desktops (and laptops), phones and tablets.
 * Feature phones, wearables, media players and the `Unknown` kinds are compared in the
 * all-cases figure only.
 */
export const MAINSTREAM_DEVICE_TYPES = new Set(['desktop', 'smartphone', 'phablet', 'tablet']);

/**
 * device-detector's OS families of mainstream traffic (the same platforms as the OS figure:
 * Windows, macOS, iOS and iPadOS, Android and its forks, Chrome OS, Linux).
 */
export const MAINSTREAM_OS_FAMILIES = new Set(['Windows', 'Mac', 'iOS', 'Android', 'Chrome OS', 'GNU/Linux']);
