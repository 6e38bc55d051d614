// @key adeunis_ftd
// @name Adeunis FTD (field test device)
// @devices ARF8123AA FTD, ARF8112AA Field Test Device
// @source Adeunis FTD LoRaWAN EU863-870 User Guide V1.2.1, section "Data frame format"
//
// Byte 0 says which fields follow, in this order: bit 7 temperature (int8 °C),
// bit 6 button press, bit 5 accelerometer trigger (no data), bit 4 GPS
// (latitude 4 BCD bytes ddmm.mmmH, longitude 4 BCD bytes dddmm.mmH, quality:
// reception scale and satellites), bit 3 uplink counter, bit 2 downlink counter,
// bit 1 battery (uint16 mV), bit 0 RSSI (uint8, -dBm) and SNR (int8 dB).

function bcd(b) { return ((b >> 4) & 0x0f).toString() + (b & 0x0f).toString(); }

function decodeUplink(input) {
  var b = input.bytes || [];
  var d = {};
  if (b.length < 1) return { data: d, errors: ["empty payload"] };
  var flags = b[0];
  var i = 1;
  function need(n, what) {
    if (i + n > b.length) throw new RangeError(what + " announced but the payload ends at byte " + b.length);
  }
  try {
    if (flags & 0x80) { need(1, "temperature"); d.temperature = (b[i] << 24) >> 24; i += 1; }
    d.button_trigger = (flags & 0x40) !== 0;
    d.accelerometer_trigger = (flags & 0x20) !== 0;
    if (flags & 0x10) {
      need(9, "GPS position");
      var lat = bcd(b[i]) + bcd(b[i + 1]) + bcd(b[i + 2]) + bcd(b[i + 3]);
      var lon = bcd(b[i + 4]) + bcd(b[i + 5]) + bcd(b[i + 6]) + bcd(b[i + 7]);
      if (/^[0-9]+$/.test(lat.slice(0, 7) + lon.slice(0, 7))) {
        var la = parseInt(lat.slice(0, 2), 10) + parseInt(lat.slice(2, 7), 10) / 1000 / 60;
        var lo = parseInt(lon.slice(0, 3), 10) + parseInt(lon.slice(3, 7), 10) / 100 / 60;
        d.latitude = Math.round((b[i + 3] & 0x01 ? -la : la) * 1e6) / 1e6;
        d.longitude = Math.round((b[i + 7] & 0x01 ? -lo : lo) * 1e6) / 1e6;
      }
      d.gps_reception = b[i + 8] >> 4;
      d.gps_satellites = b[i + 8] & 0x0f;
      i += 9;
    }
    if (flags & 0x08) { need(1, "uplink counter"); d.uplink_counter = b[i]; i += 1; }
    if (flags & 0x04) { need(1, "downlink counter"); d.downlink_counter = b[i]; i += 1; }
    if (flags & 0x02) { need(2, "battery"); d.battery_voltage = ((b[i] << 8) | b[i + 1]) / 1000; i += 2; }
    if (flags & 0x01) { need(2, "RSSI and SNR"); d.rssi = -b[i]; d.snr = (b[i + 1] << 24) >> 24; i += 2; }
  } catch (e) {
    return { data: d, errors: [e.message] };
  }
  return { data: d };
}
