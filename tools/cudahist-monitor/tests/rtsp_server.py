"""A small RTSP server for the monitor's tests: serves the gst-launch
description argv[2] (ending in an RTP payloader named pay0) as
rtsp://127.0.0.1:<argv[1]>/test until killed. With argv[3] USER and argv[4]
PASSWORD, only to that user (basic authentication)."""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

Gst.init(None)
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(sys.argv[1])
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch("( %s )" % sys.argv[2])
factory.set_shared(True)
if len(sys.argv) == 5:
    user, password = sys.argv[3], sys.argv[4]
    auth = GstRtspServer.RTSPAuth()
    token = GstRtspServer.RTSPToken()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, user)
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(user, password), token)
    server.set_auth(auth)
    permissions = GstRtspServer.RTSPPermissions()
    permissions.add_role_from_structure(Gst.Structure.new_from_string(
        "%s, media.factory.access=(boolean)true, media.factory.construct=(boolean)true" % user))
    factory.set_permissions(permissions)
server.get_mount_points().add_factory("/test", factory)
if server.attach(None) == 0:
    sys.exit("rtsp_server: cannot listen on 127.0.0.1:%s" % sys.argv[1])
print("rtsp_server: rtsp://127.0.0.1:%s/test" % sys.argv[1], flush=True)
GLib.MainLoop().run()
