// A C program linked with MuJoCo, as MuJoCo's `simulate` is: loads the plugin library of mjhand's wheel
// (mjhand.PLUGIN_LIBRARY, which links no libmujoco file of its own) and steps a model that declares mjhand plugins.
// Built and run by scripts/test-wheel.sh:  load_plugin_library PLUGIN_LIBRARY MODEL.xml
#include <stdio.h>

#include <mujoco/mujoco.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PLUGIN_LIBRARY MODEL.xml\n", argv[0]);
    return 2;
  }
  int before = mjp_pluginCount();
  mj_loadPluginLibrary(argv[1]);
  int added = mjp_pluginCount() - before;
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[2], NULL, error, sizeof(error));
  if (!m) {
    fprintf(stderr, "load_plugin_library: %s (%d plugin types registered from %s)\n", error, added, argv[1]);
    return 1;
  }
  mjData* d = mj_makeData(m);
  for (int i = 0; i < 200; ++i) mj_step(m, d);
  printf("load_plugin_library: MuJoCo %s, %d mjhand plugin types, %d instances stepped 200 times, t = %g s\n",
         mj_versionString(), added, m->nplugin, d->time);
  int ok = added > 0 && m->nplugin > 0;
  mj_deleteData(d);
  mj_deleteModel(m);
  return ok ? 0 : 1;
}
