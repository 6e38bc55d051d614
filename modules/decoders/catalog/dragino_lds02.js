// @key dragino_lds02
// @name Dragino LDS02 (door sensor)
// @devices LDS02
// @source Dragino LDS02 LoRaWAN Door Sensor User Manual (wiki.dragino.com), section 2.3 "Uplink Payload"; Dragino's codecs TTN vendor/dragino/lds02.js (and its example in lds02-codec.yaml) and github.com/dragino/dragino-end-node-decoder LDS02/LDS02_Decoder_1.8.2.txt
// @include dragino_lds
//
// fPort 10, big endian: status & BAT(2) MOD(1) open count(3) last open duration
// in minutes(3) alarm(1). Bit 7 of byte 0 is the door state, bit 6 the leak
// state (MOD 2/3, shared with the LWL02), bits 13..0 the battery in mV.
// A frame cut short (3 to 9 bytes) gives the fields it holds whole and an
// error naming those it cuts; Dragino's TTN codec reads the missing bytes as
// zeros instead, which we do not.

function decodeUplink(input) {
  return ldsDecode(input);
}
