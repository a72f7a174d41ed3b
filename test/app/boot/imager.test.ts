import { describe, expect, it } from "vitest";
import { parseCloudInit, parseCustomToml, parseFirstrun, shellWords } from "../../../src/app/boot/imager.js";
import { PiclawError } from "../../../src/util/errors.js";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnqR0M4b1cX8oXgk1aQ2aQzJ6p7n3fY0Xn7o6V2f0qA me@laptop";
const PSK = "5e8f1d9b7c3a2e4f6a8b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7";

// Shaped like rpi-imager's generateCloudInitUserData / generateCloudInitNetworkConfig output.
const USER_DATA = `#cloud-config
manage_resolv_conf: false

hostname: rig-one
manage_etc_hosts: true
packages:
- avahi-daemon
timezone: Europe/London
keyboard:
  model: pc105
  layout: "gb"
users:
- name: alice
  groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,games,input,gpio,spi,i2c,render,sudo
  shell: /bin/bash
  lock_passwd: true
  ssh_authorized_keys:
    - ${KEY}
  sudo: ALL=(ALL) NOPASSWD:ALL
enable_ssh: true
ssh_pwauth: false
`;
const NETWORK_CONFIG = `network:
  version: 2
  ethernets:
    eth0:
      dhcp4: true
      optional: true
  wifis:
    wlan0:
      dhcp4: true
      regulatory-domain: "gb"
      access-points:
        "Home \\"Net\\"":
          password: "${PSK}"
      optional: true
`;

describe("parseCloudInit", () => {
  it("reads what the Imager writes for trixie", () => {
    const s = parseCloudInit(USER_DATA, NETWORK_CONFIG.replace('\\"Net\\"', "Net"));
    expect(s).toMatchObject({
      format: "cloud-init",
      hostname: "rig-one",
      user: "alice",
      sshKeys: [KEY],
      wifiCountry: "GB",
      timezone: "Europe/London",
    });
    expect(s.wifi).toEqual([{ ssid: "Home Net", psk: PSK, hidden: false }]);
    expect(s.ignored.some((l) => l.startsWith("keyboard:"))).toBe(true);
  });

  it("rejects a double quote in an SSID rather than writing a broken wpa_supplicant file", () => {
    expect(() => parseCloudInit(null, NETWORK_CONFIG)).toThrow(/double quote/);
  });

  it("lists every invalid value at once", () => {
    const bad = USER_DATA.replace("rig-one", "rig_one!").replace("Europe/London", "Mars Base");
    try {
      parseCloudInit(bad, null);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PiclawError);
      expect((err as PiclawError).code).toBe("BOOT_SETTINGS_INVALID");
      expect((err as PiclawError).message).toMatch(/hostname.*timezone/s);
    }
  });

  it("refuses user data that is not #cloud-config and short Wi-Fi passwords", () => {
    expect(() => parseCloudInit("#!/bin/sh\necho hi\n", null)).toThrow(/cloud-config/);
    const short = NETWORK_CONFIG.replace('\\"Net\\"', "Net").replace(PSK, "short");
    expect(() => parseCloudInit(null, short)).toThrow(/8-63/);
  });
});

describe("parseFirstrun", () => {
  // Shaped like rpi-imager's generateSystemdScript output.
  const SCRIPT = `#!/bin/sh

set +e

CURRENT_HOSTNAME=$(cat /etc/hostname | tr -d " \\t\\n\\r")
if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
   /usr/lib/raspberrypi-sys-mods/imager_custom set_hostname rig-two
else
   echo rig-two >/etc/hostname
fi
if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
   /usr/lib/raspberrypi-sys-mods/imager_custom enable_ssh -k '${KEY}'
fi
if [ -f /usr/lib/userconf-pi/userconf ]; then
   /usr/lib/userconf-pi/userconf 'bob' ''
fi
if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
   /usr/lib/raspberrypi-sys-mods/imager_custom set_wlan  -h 'It'"'"'s mine' '${PSK}' 'DE'
else
cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'
country=DE
WPAEOF
fi
if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
   /usr/lib/raspberrypi-sys-mods/imager_custom set_keymap 'de'
   /usr/lib/raspberrypi-sys-mods/imager_custom set_timezone 'Europe/Berlin'
fi
rm -f /boot/firstrun.sh
`;

  it("reads the imager_custom calls, never the fallback branches", () => {
    const s = parseFirstrun(SCRIPT);
    expect(s).toMatchObject({ hostname: "rig-two", user: "bob", sshKeys: [KEY], wifiCountry: "DE" });
    expect(s.timezone).toBe("Europe/Berlin");
    expect(s.wifi).toEqual([{ ssid: "It's mine", psk: PSK, hidden: true }]);
    expect(s.ignored).toEqual(["set_keymap: headless image: no console keymap"]);
  });

  it("splits shell words the way the Imager quotes them", () => {
    expect(shellWords(`a 'b c' "d"e 'x'"'"'y' # comment`)).toEqual(["a", "b c", "de", "x'y"]);
  });
});

describe("parseCustomToml", () => {
  it("reads raspberrypi-sys-mods' custom.toml", () => {
    const s = parseCustomToml(`config_version = 1
[system]
hostname = "rig-three"
[user]
name = "carol"
password = "secret"
password_encrypted = false
[ssh]
enabled = true
authorized_keys = [ "${KEY}" ]
[wlan]
ssid = "Lab"
password = "correct horse"
password_encrypted = false
country = "fr"
[locale]
keymap = "fr"
timezone = "Europe/Paris" # comment
`);
    expect(s).toMatchObject({ hostname: "rig-three", user: "carol", sshKeys: [KEY], wifiCountry: "FR" });
    expect(s.wifi).toEqual([{ ssid: "Lab", psk: "correct horse", hidden: false }]);
    expect(s.timezone).toBe("Europe/Paris");
    expect(s.ignored).toHaveLength(2);
  });

  it("names the line it cannot read", () => {
    expect(() => parseCustomToml("config_version = 1\n[wlan]\nssid = {inline}\n")).toThrow(/line 3/);
  });
});
