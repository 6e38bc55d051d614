// @key dragino_lwl02
// @name Dragino LWL02 (water leak sensor)
// @devices LWL02
// @source Dragino LWL02 LoRaWAN Water Leak Sensor User Manual (wiki.dragino.com), section 2.3 "Uplink Payload"; Dragino's codec TTN vendor/dragino/lwl02.js and its example in lwl02-codec.yaml
// @include dragino_lds
//
// fPort 10, big endian: status & BAT(2) MOD(1) leak count(3) last leak duration
// in minutes(3) alarm(1). Bit 6 of byte 0 is the leak state, bit 7 the door
// state (the format is shared with the LDS02), bits 13..0 the battery in mV. A frame cut short
// gives the fields it holds whole and an error naming those it cuts.

function decodeUplink(input) {
  return ldsDecode(input);
}
