// The smallest pkg-config consumer of mjhand: registers mjhand's native MuJoCo plugins, loads an installed model
// (pid_finger.xml, whose native "hold" instance is a PID driving three plugin actuators) and checks that the plugin
// holds the joints at its setpoints.
#include <mjhand/host/controller_plugin.h>
#include <mjhand/io/model_io.h>
#include <mjhand/native/instances.h>
#include <mjhand/native/native_plugins.h>
#include <mjhand/pid/pid.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer MODELS_DIR\n");
    return 2;
  }
  try {
    const std::string path = std::string(argv[1]) + "/pid_finger.xml";
    mjhand::register_native_plugins();
    mjhand::ModelPtr m = mjhand::load_model(path);
    const mjhand::InstanceList instances(m.get());
    mjhand::DataPtr d = mjhand::make_data(m.get());
    while (d->time < 2.0) mj_step(m.get(), d.get());
    // The instance's own options say where the joints must be: a model whose plugin did not run would hang at q = 0.
    const mjhand::Instance* hold = instances.find("hold");
    const auto* pid = hold ? dynamic_cast<const mjhand::ControllerPlugin<mjhand::PidController>*>(hold->plugin.get())
                           : nullptr;
    if (!pid) {
      std::printf("pkg-config consumer: FAILED (no pid instance 'hold' in %s)\n", path.c_str());
      return 1;
    }
    const auto& o = pid->controller().options();
    double worst = 0;
    for (size_t j = 0; j < o.joints.size(); ++j) {
      worst = std::fmax(worst, std::fabs(d->qpos[m->jnt_qposadr[o.joints[j]]] - o.setpoint[j]));
    }
    std::printf("pkg-config consumer: %s t=%.3f s, largest |q - setpoint| of %zu joints = %.2e rad\n", path.c_str(),
                d->time, o.joints.size(), worst);
    // 0.01 rad is about 7 counts of the model's 4096-count encoders, which bound how closely a digital PID holds.
    const bool ok = worst < 0.01;
    std::printf(ok ? "pkg-config consumer: OK\n" : "pkg-config consumer: FAILED (the pid plugin did not hold)\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pkg-config consumer: %s\n", e.what());
    return 1;
  }
}
